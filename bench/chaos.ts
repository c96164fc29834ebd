import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Client } from '@temporalio/client';
import { connectClient, startIngestion } from '../client/ingestClient';
import { openAdapters, type Adapters } from '../composition/adapters';
import { loadConfig, type SluiceConfig } from '../config/config';
import { createCpuPool } from '../cpuPool/pool';
import { objectKeys } from '../stores/objectKeys';
import { apiHealthy } from '../testkit/harness/childApi';
import type { ChunkPrint } from '../testkit/fixtures/chunkFingerprint';
import { freePort, startPrivatePostgres } from '../testkit/harness/privatePostgres';
import { startPrivateTemporal } from '../testkit/harness/privateTemporal';
import { registerDocument } from '../testkit/harness/registerDocument';
import { startTcpProxy } from '../testkit/harness/tcpProxy';
import { chaosCorpus, formatOf } from './chaosCorpus';
import { drain } from './chaosDrain';
import { seededRandom } from '../contracts/seededRandom';
import { faultSchedule, injectFaults, type FaultRecord, type Timing } from './chaosFaults';
import { checkInvariants, cleanChunks, type SoakDocument } from './chaosInvariants';
import { SluiceProcesses } from './chaosProcesses';
import { activityRetries, faultsByKind, faultTable } from './chaosReport';

/**
 * `npm run bench:chaos`: a soak with faults. Mixed documents are ingested by real worker
 * processes while an injector SIGKILLs workers, SIGKILLs and restarts Postgres and the Temporal
 * server (private ones, on free ports), and cuts OpenSearch and S3 (the stack's, through TCP
 * proxies). Then every invariant of docs/design.md §1 is checked. JSON to bench-results/; exits 1 on
 * any violation (`bench:chaos:ci` is the reduced size CI runs).
 */
const int = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const DOCS = int('BENCH_CHAOS_DOCS', 200);
const EACH = int('BENCH_CHAOS_FAULTS_EACH', 3);
const WORKERS = int('BENCH_CHAOS_WORKERS', 2);
const SEED = int('BENCH_CHAOS_SEED', 21);
const DRAIN_TIMEOUT_MS = int('BENCH_CHAOS_DRAIN_TIMEOUT_S', 1800) * 1000;
const OUT = process.env.BENCH_CHAOS_OUT ?? 'chaos.json';
/** How long each dependency stays down, `min-max` seconds: the stages' outage budget must ride out each. */
const OUTAGE_S = (process.env.BENCH_CHAOS_OUTAGE_S ?? '3-60').split('-').map(Number) as [number, number];
const TIMING: Timing = { gapMs: [2_000, 8_000], outageMs: [OUTAGE_S[0] * 1000, OUTAGE_S[1] * 1000] };
/** One Postgres outage this long after the others (0: none): the scenario of a database failover. */
const LONG_POSTGRES_MS = int('BENCH_CHAOS_LONG_POSTGRES_S', 300) * 1000;
/** Documents that may need an admin retry: none, since every fault is an outage the retries ride out. */
const MAX_ADMIN_RETRIES = int('BENCH_CHAOS_MAX_ADMIN_RETRIES', 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => console.error(`chaos: ${message}`);

function hostPort(url: string | undefined, what: string): { host: string; port: number } {
  if (!url) throw new Error(`${what} is not set: run eval "$(bash scripts/stack.sh env)" first`);
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 80) };
}

/** Starts a document, retrying while Temporal is down (the task id makes a repeated start a no-op). */
async function startWithRetry(client: Client, config: Readonly<SluiceConfig>, doc: SoakDocument, userId: string) {
  const taskId = randomUUID();
  for (;;) {
    try {
      return await startIngestion(client, config, { documentId: doc.documentId, userId, datasetId: 'chaos', taskId });
    } catch {
      await sleep(1000);
    }
  }
}

/**
 * The soak's documents with their clean chunk sets, then registered. A file whose clean run has
 * no chunk (an HTML page that is only a table of contents) would end EMPTY_DOCUMENT without any
 * fault, so the corpus is drawn a fifth larger and such files are left out.
 */
async function prepareDocuments(
  adapters: Adapters,
  config: Readonly<SluiceConfig>,
  userId: string,
): Promise<{ docs: SoakDocument[]; expected: Map<string, ChunkPrint[]>; leftOut: number }> {
  const candidates = chaosCorpus(Math.ceil(DOCS * 1.2)).map((file) => ({ ...file, documentId: randomUUID() }));
  const expected = await expectations(config, candidates);
  const withChunks = candidates.filter((d) => expected.get(d.documentId)?.some((p) => p.kind === 'child'));
  const docs = withChunks.slice(0, DOCS);
  for (const doc of docs)
    await registerDocument(adapters, {
      userId,
      datasetId: 'chaos',
      fileName: doc.fileName,
      documentId: doc.documentId,
      body: Readable.from([doc.bytes]),
    });
  return { docs, expected, leftOut: candidates.length - withChunks.length };
}

async function expectations(config: Readonly<SluiceConfig>, docs: SoakDocument[]): Promise<Map<string, ChunkPrint[]>> {
  const cpu = createCpuPool({ threads: 1, limits: config.parsing });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-chaos-clean-'));
  try {
    const expected = new Map<string, ChunkPrint[]>();
    for (const doc of docs) expected.set(doc.documentId, await cleanChunks(cpu, config, doc, tmp));
    return expected;
  } finally {
    await cpu.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  const opensearchTarget = hostPort(process.env.OPENSEARCH_URL, 'OPENSEARCH_URL');
  const s3Target = hostPort(process.env.S3_ENDPOINT, 'S3_ENDPOINT');
  const random = seededRandom(SEED);
  const runId = randomUUID().slice(0, 8);
  const userId = `chaos-${runId}`;
  const postgres = await startPrivatePostgres();
  await postgres.createDatabase('sluice');
  const temporal = await startPrivateTemporal();
  const opensearch = await startTcpProxy(opensearchTarget);
  const s3 = await startTcpProxy(s3Target);
  const env: Record<string, string> = {
    DATABASE_URL: postgres.url('sluice'),
    TEMPORAL_ADDRESS: temporal.address,
    SLUICE_OBJECT_STORE: 's3',
    S3_ENDPOINT: s3.url,
    SLUICE_KEYWORD_INDEX: 'opensearch',
    OPENSEARCH_URL: opensearch.url,
    OPENSEARCH_INDEX: 'sluice-chaos',
    SLUICE_EMBEDDER: 'local',
    SLUICE_SWEEP_EVERY: 'off',
    SLUICE_RETRY_WAIT: '1h',
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-chaos-'));
  const config = loadConfig({ ...process.env, ...env, SLUICE_DATA_DIR: dataDir, SLUICE_TASK_QUEUE: `chaos-${runId}` });
  const adapters = await openAdapters(config);
  const client = await connectClient(config);
  const processes = new SluiceProcesses(config, env);
  let docs: SoakDocument[] = [];
  // The processes' logs stay for reading when anything went wrong.
  let keepLogs = true;
  try {
    log('computing the clean chunk sets');
    const prepared = await prepareDocuments(adapters, config, userId);
    docs = prepared.docs;
    const { expected } = prepared;
    log(`${docs.length} documents registered (${prepared.leftOut} without any chunk left out)`);

    for (let i = 0; i < WORKERS; i++) processes.startWorker();
    const apiPort = await freePort();
    const api = processes.startApi(apiPort);
    const baseUrl = `http://127.0.0.1:${apiPort}`;
    await apiHealthy(api, baseUrl, 180_000);

    const schedule = faultSchedule(EACH, random);
    const mean = ([a, b]: [number, number]) => (a + b) / 2;
    const windowMs = schedule.length * (mean(TIMING.gapMs) + mean(TIMING.outageMs));
    const startedAt = Date.now();
    log(`soak: ${schedule.length} faults over ~${Math.round(windowMs / 1000)} s, starts spread over its first 70 %`);
    const healthDown: Record<string, number> = {};
    let soaking = true;
    const probing = (async () => {
      while (soaking) {
        const body = await fetch(`${baseUrl}/healthz`)
          .then((r) => r.json() as Promise<{ down?: string[] }>)
          .catch(() => ({ down: ['(no answer)'] }));
        for (const name of body.down ?? []) healthDown[name] = (healthDown[name] ?? 0) + 1;
        await sleep(1000);
      }
    })();
    const starting = Promise.all(
      docs.map(async (doc, i) => {
        await sleep((i * windowMs * 0.7) / docs.length);
        await startWithRetry(client, config, doc, userId);
      }),
    );
    const targets = {
      killWorker: () => processes.killWorker(random),
      postgres,
      temporal,
      opensearch,
      s3,
    };
    const logFault = (f: FaultRecord) =>
      log(`${f.kind} at ${(f.atMs / 1000).toFixed(1)} s, down ${(f.downMs / 1000).toFixed(1)} s`);
    const faults: FaultRecord[] = await injectFaults(schedule, targets, TIMING, random, startedAt, logFault);
    if (LONG_POSTGRES_MS > 0) {
      const long: Timing = { gapMs: [2_000, 2_000], outageMs: [LONG_POSTGRES_MS, LONG_POSTGRES_MS] };
      faults.push(...(await injectFaults(['postgres-restart'], targets, long, random, startedAt, logFault)));
    }
    await starting;
    const restoredAt = Date.now();
    const outcome = await drain(
      adapters,
      client,
      config,
      docs.map((d) => d.documentId),
      DRAIN_TIMEOUT_MS,
    );
    const drainMs = Date.now() - restoredAt;
    soaking = false;
    await probing;
    log(`drained ${drainMs} ms after the last fault; checking invariants`);

    const violations = await checkInvariants(adapters, docs, expected, userId);
    if (outcome.adminRetries.length > MAX_ADMIN_RETRIES)
      violations.push(
        `${outcome.adminRetries.length} document(s) needed an admin retry (at most ${MAX_ADMIN_RETRIES}): ${outcome.adminRetries.join(', ')}`,
      );
    for (const exit of processes.unexpectedExits)
      violations.push(
        `${exit.role} ${exit.pid} exited (code ${exit.code}, signal ${exit.signal}) without being killed`,
      );
    const byKind = faultsByKind(faults);
    const formats: Record<string, number> = {};
    for (const d of docs) formats[formatOf(d.fileName)] = (formats[formatOf(d.fileName)] ?? 0) + 1;
    const report = {
      documents: docs.length,
      leftOutWithoutChunks: prepared.leftOut,
      formats,
      largePdfBytes: docs.find((d) => d.fileName === 'gnuplot.pdf')?.bytes.length ?? 0,
      workers: WORKERS,
      seed: SEED,
      faults: byKind,
      faultLog: faults,
      longestOutageSurvivedMs: Math.max(0, ...faults.filter((f) => f.kind !== 'worker-kill').map((f) => f.downMs)),
      adminRetries: outcome.adminRetries.length,
      activityRetries: await activityRetries(
        client,
        docs.map((d) => d.documentId),
      ),
      healthzDown: healthDown,
      soakMs: restoredAt - startedAt,
      drainMs,
      processes: { spawned: processes.spawned, exits: processes.exits },
      violations,
    };
    const outDir = path.resolve(__dirname, '..', 'bench-results');
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, OUT), `${JSON.stringify(report, null, 2)}\n`);
    console.log(JSON.stringify(report, null, 2));
    console.error(faultTable(byKind));
    log(`${violations.length} violation(s); ${outcome.adminRetries.length} admin retries; drain ${drainMs} ms`);
    keepLogs = violations.length > 0;
    return violations.length === 0 ? 0 : 1;
  } finally {
    await processes.stopAll();
    for (const doc of docs)
      await adapters.keywords.deleteDocument({ userId, datasetId: 'chaos' }, doc.documentId).catch(() => undefined);
    await adapters.objects
      .deletePrefix(objectKeys.source(userId, 'x').replace(/x\/source$/, ''))
      .catch(() => undefined);
    await client.connection.close();
    await adapters.close();
    await opensearch.close();
    await s3.close();
    await temporal.destroy();
    await postgres.destroy();
    if (keepLogs) log(`process logs kept in ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
