import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connectTemporal } from '../../client/temporalConnection';
import { loadConfig } from '../../config/config';
import { call, fileForm, newUser, startApi, waitForDocument, type ApiHarness } from '../../testkit/harness/apiHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// The worker, the API and the CLI against the real Temporal cluster of the stack (temporal-tls:
// scripts/stack/temporal-cluster.sh), whose frontend demands a client certificate from its CA.
// Connected the way a deployment connects: the TEMPORAL_* variables (config/temporalConfig.ts).

const ROOT = path.resolve(__dirname, '..', '..');
const address = process.env.SLUICE_TEMPORAL_TLS_ADDRESS;
const pki = process.env.SLUICE_TEMPORAL_TLS_PKI;
if (!address || !pki) {
  throw new Error('the temporal-tls stack service is not running: bash scripts/stack.sh start; eval "$(… env)"');
}
const mtls = {
  TEMPORAL_ADDRESS: address,
  TEMPORAL_NAMESPACE: process.env.SLUICE_TEMPORAL_TLS_NAMESPACE ?? 'sluice',
  TEMPORAL_TLS_CLIENT_CERT_PATH: path.join(pki, 'client.pem'),
  TEMPORAL_TLS_CLIENT_KEY_PATH: path.join(pki, 'client.key'),
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: path.join(pki, 'ca.pem'),
  TEMPORAL_TLS_SERVER_NAME: 'localhost',
};

let h: ApiHarness;
let dir: string;
beforeAll(async () => {
  h = await startApi(mtls);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sluice-tls-'));
}, 120_000);
afterAll(async () => {
  await h?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'bin', 'sluice'), args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const parts: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => parts.push(b));
    child.stderr.on('data', (b: Buffer) => parts.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: Buffer.concat(parts).toString('utf8') }));
  });
}

it('ingests an upload through the API to SUCCESS on the mTLS cluster', async () => {
  expect(h.tw.config.temporal.address).toBe(address);
  const user = await newUser(h, 'tls');
  const upload = await call<{ documentId: string }>(h.baseUrl, 'POST', '/v1/datasets/tls/documents', {
    user,
    body: fileForm([{ name: 'cluster.md', content: `# On the cluster\n\nThrough mTLS ${randomUUID()}.\n` }]),
  });
  expect(upload.status).toBe(202);
  h.tw.track(upload.body.documentId);
  const document = await waitForDocument(h, user, upload.body.documentId);
  expect(document.pipelineStatus).toBe('SUCCESS');
  // The run is on the cluster's namespace, not the dev server's. The pipeline row says SUCCESS a
  // moment before the run closes (its result notification comes after), so the run is awaited.
  const handle = h.tw.client.workflow.getHandle(`ingest:${upload.body.documentId}`);
  await handle.result();
  expect((await handle.describe()).status.name).toBe('COMPLETED');
});

it('ingests a file with the CLI, in its own process, through mTLS', async () => {
  const file = path.join(dir, 'cli.md');
  await fs.writeFile(file, `# From the CLI\n\nOver mTLS ${randomUUID()}.\n`);
  const { code, output } = await runCli(['ingest', file, '--dataset', 'tls-cli', '--user', `cli-${randomUUID()}`], {
    ...process.env,
    ...mtls,
    DATABASE_URL: TEST_DATABASE_URL,
    SLUICE_DATA_DIR: h.tw.config.dataDir,
    SLUICE_TASK_QUEUE: h.tw.config.temporal.taskQueue,
    SLUICE_EMBEDDER: 'local',
    SLUICE_SWEEP_EVERY: 'off',
  });
  expect(output).toMatch(/SUCCESS/);
  expect(code).toBe(0);
});

it('refuses a client without the certificate, and one without TLS, with a clear error', async () => {
  const noCert = loadConfig({
    TEMPORAL_ADDRESS: address,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: mtls.TEMPORAL_TLS_SERVER_CA_CERT_PATH,
    TEMPORAL_TLS_SERVER_NAME: 'localhost',
  });
  await expect(connectTemporal(noCert.temporal.connection)).rejects.toThrow(
    new RegExp(`^cannot connect to Temporal at ${address.replace(/\./g, '\\.')} \\(with TLS\\): `),
  );
  const plain = loadConfig({ TEMPORAL_ADDRESS: address });
  await expect(connectTemporal(plain.temporal.connection)).rejects.toThrow(/\(without TLS\): /);
});
