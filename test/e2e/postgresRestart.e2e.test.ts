import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Readable } from 'node:stream';
import type { Client } from '@temporalio/client';
import { createUserWithKey } from '../../api/apiKeys';
import { connectClient, startIngestion } from '../../client/ingestClient';
import { openAdapters, type Adapters } from '../../composition/adapters';
import { ingestWorkflowId } from '../../contracts/ingest';
import { countChunks } from '../../db/repositories/chunks';
import { apiHealthy, spawnApi } from '../../testkit/harness/childApi';
import { killHard, spawnWorker } from '../../testkit/harness/childWorker';
import { chunkPrints, cleanPrintsAs, storeMismatches } from '../../testkit/fixtures/chunkFingerprint';
import { eventually, sectionedMarkdown, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { freePort, startPrivatePostgres, type PrivatePostgres } from '../../testkit/harness/privatePostgres';
import { registerDocument } from '../../testkit/harness/registerDocument';
import { testConfig } from '../../testkit/harness/testConfig';

/**
 * docs/design.md §1 "every process survives its dependencies", for Postgres: its postmaster is
 * SIGKILLed in the middle of VECTORIZING and comes back 10 s later. The worker and the API are
 * real child processes on a Postgres of this test's own (the shared stack's is never touched).
 */
const CHUNKS = 600;
const OUTAGE_MS = 10_000;
const scope = { userId: `user-${randomUUID()}`, datasetId: 'pg-restart' };
const content = sectionedMarkdown(CHUNKS, 'restart');
let pg: PrivatePostgres;
let config: ReturnType<typeof testConfig>;
let adapters: Adapters;
let client: Client;
const children: ChildProcess[] = [];
const started: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  pg = await startPrivatePostgres();
  await pg.createDatabase('sluice');
  config = testConfig({ DATABASE_URL: pg.url('sluice'), SLUICE_EMBED_BATCH_SIZE: '2' });
  adapters = await openAdapters(config);
  client = await connectClient(config);
}, 120_000);

afterAll(async () => {
  for (const child of children) await killHard(child);
  for (const id of started)
    await client?.workflow
      .getHandle(ingestWorkflowId(id))
      .terminate('test done')
      .catch(() => undefined);
  await client?.connection.close();
  await adapters?.close();
  await pg?.destroy();
});

async function ingest(): Promise<string> {
  const doc = await registerDocument(adapters, {
    ...scope,
    fileName: 'restart.md',
    body: Readable.from([Buffer.from(content)]),
  });
  started.push(doc.id);
  await startIngestion(client, config, { documentId: doc.id, ...scope });
  return doc.id;
}

/** Probes the API every 250 ms while Postgres is down: what /healthz and an authenticated read answered. */
async function probeApi(baseUrl: string, apiKey: string, documentId: string, untilMs: number) {
  const seen = { healthz: new Set<string>(), read: new Set<number>() };
  while (Date.now() < untilMs) {
    const health = await fetch(`${baseUrl}/healthz`).then(
      async (r) => `${r.status} ${JSON.stringify(((await r.json()) as { down?: unknown }).down)}`,
      (error: unknown) => `no answer: ${String(error)}`,
    );
    seen.healthz.add(health);
    const read = await fetch(`${baseUrl}/v1/documents/${documentId}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    }).then(
      (r) => r.status,
      () => 0,
    );
    seen.read.add(read);
    await sleep(250);
  }
  return seen;
}

it('a Postgres SIGKILLed mid-VECTORIZING and restarted 10 s later: worker and API stay up, the document ends like a clean run', async () => {
  const worker = spawnWorker(config);
  const apiPort = await freePort();
  const api = spawnApi(config, apiPort);
  children.push(worker, api);
  const baseUrl = `http://127.0.0.1:${apiPort}`;
  await apiHealthy(api, baseUrl);
  const { apiKey } = await createUserWithKey(adapters.db, scope.userId);

  const faulted = await ingest();
  const atKill = await eventually(
    () => countChunks(adapters.db, faulted),
    (c) => c.dense > 0,
    180_000,
    10,
  );
  await pg.kill();
  expect(atKill.dense).toBeLessThan(CHUNKS);
  const seen = await probeApi(baseUrl, apiKey, faulted, Date.now() + OUTAGE_MS);
  await pg.start();

  // Neither process exited while its database was gone.
  expect({ worker: worker.exitCode ?? worker.signalCode, api: api.exitCode ?? api.signalCode }).toEqual({
    worker: null,
    api: null,
  });
  // The keyword index is Postgres's full-text search here, so it is down with it.
  expect([...seen.healthz]).toContain('503 ["Postgres","keyword index"]');
  expect([...seen.healthz].filter((h) => !h.startsWith('503'))).toEqual([]);
  expect([...seen.read]).toContain(503);
  expect([...seen.read]).not.toContain(500);

  const progress = await waitTerminal(client, faulted, 300_000);
  expect(progress.status).toBe('SUCCESS');
  await apiHealthy(api, baseUrl, 30_000);

  const clean = await ingest();
  expect((await waitTerminal(client, clean, 300_000)).status).toBe('SUCCESS');
  expect(await chunkPrints(adapters.db, faulted)).toEqual(await cleanPrintsAs(adapters.db, clean, faulted));
  expect(await countChunks(adapters.db, faulted)).toMatchObject({
    active: CHUNKS,
    dense: CHUNKS,
    sparse: CHUNKS,
    keyword: CHUNKS,
  });
  expect(await adapters.vectors.countForDocument(faulted)).toEqual({ dense: CHUNKS, sparse: CHUNKS });
  expect(await storeMismatches(adapters.db, faulted)).toEqual([]);
  expect({ worker: worker.exitCode ?? worker.signalCode, api: api.exitCode ?? api.signalCode }).toEqual({
    worker: null,
    api: null,
  });
}, 600_000);
