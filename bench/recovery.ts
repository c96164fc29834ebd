import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { retryDocument } from '../client/documentAdmin';
import { connectClient } from '../client/ingestClient';
import { loadConfig } from '../config/config';
import { ingestWorkflowId } from '../contracts/ingest';
import { STAGES, type Stage } from '../contracts/stages';
import { countChunks } from '../db/repositories/chunks';
import { migrateToLatest } from '../db/migrate';
import { createAdapters } from '../composition/adapters';
import { createSluiceWorker } from '../worker/createWorker';
import { killHard, spawnWorker } from '../test/support/childWorker';
import { injectStageFaults } from '../test/support/faultInjection';
import { flakyEmbedders, type FlakyProviderState } from '../test/support/flakyEmbedder';
import { eventually, ingestBuffer, sectionedMarkdown, waitForTask, waitTerminal } from '../test/support/ingestHelpers';
import { installQuietRuntime } from '../test/support/quietRuntime';
import type { TestWorker } from '../test/support/testWorker';

/**
 * `npm run bench:recovery`: what recovery costs, measured on the real dev server and Postgres.
 * Prints JSON and writes bench-results/recovery.json.
 */
const PARTIAL_CHUNKS = Number(process.env.BENCH_PARTIAL_CHUNKS ?? 200);
const CRASH_CHUNKS = Number(process.env.BENCH_CRASH_CHUNKS ?? 1500);

function baseConfig(extra: Record<string, string> = {}) {
  return loadConfig({
    ...process.env,
    SLUICE_DATA_DIR: path.join(os.tmpdir(), `sluice-bench-${randomUUID()}`),
    SLUICE_TASK_QUEUE: `bench-recovery-${randomUUID()}`,
    SLUICE_SWEEP_EVERY: 'off',
    ...extra,
  });
}

async function inProcessWorker(config: ReturnType<typeof loadConfig>, provider: FlakyProviderState, failOnce: Map<string, Stage>, executions: Map<string, number>): Promise<TestWorker & { stop(): Promise<void> }> {
  const base = createAdapters(config);
  await migrateToLatest(base.db);
  const adapters = { ...base, embedders: flakyEmbedders(base.embedders, provider) };
  const running = await createSluiceWorker(config, adapters, { wrapActivities: injectStageFaults(failOnce, executions) });
  const done = running.worker.run();
  return {
    config,
    adapters,
    client: running.client,
    worker: running.worker,
    track: () => undefined,
    shutdown: async () => undefined,
    async stop() {
      running.worker.shutdown();
      await done;
      await running.close();
      await base.close();
    },
  };
}

async function partialAndSkips() {
  const config = baseConfig({ SLUICE_EMBED_BATCH_SIZE: '10' });
  const provider: FlakyProviderState = { failAfter: null, embedded: [] };
  const embedded = provider.embedded;
  const failOnce = new Map<string, Stage>();
  const executions = new Map<string, number>();
  const tw = await inProcessWorker(config, provider, failOnce, executions);
  const scope = { userId: 'bench', datasetId: `bench-${Date.now()}` };
  const admin = { client: tw.client, db: tw.adapters.db, config };
  try {
    provider.failAfter = Math.floor(PARTIAL_CHUNKS * 0.8);
    const a = await ingestBuffer(tw, sectionedMarkdown(PARTIAL_CHUNKS, 'bench-partial'), 'partial.md', scope);
    await waitTerminal(tw.client, a.documentId);
    const remaining = PARTIAL_CHUNKS - (await countChunks(tw.adapters.db, a.documentId)).dense;
    const before = embedded.length;
    const retryA = await retryDocument(admin, a.documentId);
    await waitForTask(tw.client, a.documentId, retryA.taskId);
    const embeddedOnRetry = embedded.length - before;

    const b = await ingestBuffer(tw, sectionedMarkdown(50, 'bench-skip'), 'skip.md', scope, { beforeStart: (id) => failOnce.set(id, 'SPARSE_VECTORIZING') });
    await waitTerminal(tw.client, b.documentId);
    const runsBefore = STAGES.map((s) => executions.get(`${b.documentId}:${s}`) ?? 0);
    const retryB = await retryDocument(admin, b.documentId);
    await waitForTask(tw.client, b.documentId, retryB.taskId);
    const rerun = STAGES.filter((s, i) => (executions.get(`${b.documentId}:${s}`) ?? 0) > (runsBefore[i] ?? 0));
    return {
      partialEmbedding: { chunks: PARTIAL_CHUNKS, chunksRemainingAtFailure: remaining, textsEmbeddedOnRetry: embeddedOnRetry, textsEmbeddedTwice: embedded.length - new Set(embedded).size },
      stageSkips: { failedAt: 'SPARSE_VECTORIZING', stagesRerunOnRetry: rerun, stagesSkippedOnRetry: STAGES.length - rerun.length },
    };
  } finally {
    await tw.stop();
  }
}

/**
 * SIGKILL of the worker mid-VECTORIZING, a replacement started at the kill (as a supervisor would).
 * Recovery is the time until the document makes progress again: the server notices the dead
 * attempt at the heartbeat timeout (6 s after the last forwarded beat, which the 2 s throttle
 * makes 0–2 s old), retries it after the retry policy's initial interval, and a worker that is
 * polling by then takes it at once. The replacement's start-up runs meanwhile and is reported on
 * its own; finishing the remaining chunks is reported apart too (it is work, not recovery).
 */
async function sigkill() {
  const config = baseConfig({ SLUICE_EMBED_BATCH_SIZE: '2' });
  const tw = await inProcessClientOnly(config);
  const scope = { userId: 'bench', datasetId: `bench-crash-${Date.now()}` };
  let child = spawnWorker(config);
  try {
    const cleanStart = Date.now();
    const clean = await ingestBuffer(tw, sectionedMarkdown(CRASH_CHUNKS, 'bench-clean'), 'clean.md', scope);
    await waitTerminal(tw.client, clean.documentId, 600_000);
    const cleanMs = Date.now() - cleanStart;

    const crashed = await ingestBuffer(tw, sectionedMarkdown(CRASH_CHUNKS, 'bench-crash'), 'crash.md', scope);
    const atKill = await eventually(() => countChunks(tw.adapters.db, crashed.documentId), (c) => c.dense > CRASH_CHUNKS / 4, 300_000, 10);
    await killHard(child);
    const killedAt = Date.now();
    const logsBefore = new Set(workerLogs(config.dataDir));
    child = spawnWorker(config);
    const ready = waitForPolling(config.dataDir, logsBefore).then(() => Date.now() - killedAt);
    // A batch the killed process had already sent may still commit: the baseline is taken after it.
    await sleep(300);
    const stalled = (await countChunks(tw.adapters.db, crashed.documentId)).dense;
    await eventually(() => countChunks(tw.adapters.db, crashed.documentId), (c) => c.dense > stalled, 300_000, 20);
    const resumedMs = Date.now() - killedAt;
    const outcome = await waitTerminal(tw.client, crashed.documentId, 600_000);
    return {
      chunks: CRASH_CHUNKS,
      denseAtKill: atKill.dense,
      status: outcome.status,
      resumedMsAfterSigkill: resumedMs,
      replacementPollingMsAfterSigkill: await ready,
      finishedMsAfterSigkill: Date.now() - killedAt,
      cleanRunMs: cleanMs,
      note: 'resumed: the retried VECTORIZING attempt embeds again (heartbeat timeout 6 s after the last forwarded beat, then the retry interval); finished adds the remaining chunks and stages',
    };
  } finally {
    await killHard(child);
    await tw.adapters.close();
    await tw.client.connection.close();
  }
}

/**
 * The same kill with a second worker already polling (a deployment runs several): recovery is then
 * the heartbeat timeout and the retry interval alone. The worker that runs VECTORIZING is found by
 * the identity (`<pid>@<host>`) the server records for the attempt.
 */
async function sigkillWithStandby() {
  const config = baseConfig({ SLUICE_EMBED_BATCH_SIZE: '2' });
  const tw = await inProcessClientOnly(config);
  const scope = { userId: 'bench', datasetId: `bench-standby-${Date.now()}` };
  const children = [spawnWorker(config), spawnWorker(config)];
  try {
    await waitForPolling(config.dataDir, new Set(), 2);
    const crashed = await ingestBuffer(tw, sectionedMarkdown(CRASH_CHUNKS, 'bench-standby'), 'standby.md', scope);
    await eventually(() => countChunks(tw.adapters.db, crashed.documentId), (c) => c.dense > CRASH_CHUNKS / 4, 300_000, 10);
    const { raw } = await tw.client.workflow.getHandle(ingestWorkflowId(crashed.documentId)).describe();
    const identity = raw.pendingActivities?.find((a) => a.activityType?.name === 'vectorizing')?.lastWorkerIdentity ?? '';
    const running = children.find((c) => identity.startsWith(`${c.pid}@`));
    if (!running) throw new Error(`no spawned worker is ${identity}`);
    await killHard(running);
    const killedAt = Date.now();
    await sleep(300);
    const stalled = (await countChunks(tw.adapters.db, crashed.documentId)).dense;
    await eventually(() => countChunks(tw.adapters.db, crashed.documentId), (c) => c.dense > stalled, 300_000, 20);
    const resumedMs = Date.now() - killedAt;
    const outcome = await waitTerminal(tw.client, crashed.documentId, 600_000);
    return { chunks: CRASH_CHUNKS, status: outcome.status, resumedMsAfterSigkill: resumedMs, finishedMsAfterSigkill: Date.now() - killedAt };
  } finally {
    for (const child of children) await killHard(child);
    await tw.adapters.close();
    await tw.client.connection.close();
  }
}

/** The worker logs spawnWorker writes into the data dir. */
function workerLogs(dataDir: string): string[] {
  return fs.readdirSync(dataDir).filter((f) => /^worker-\d+\.log$/.test(f));
}

/** Resolves when `count` workers with logs that were not there before say they poll. */
async function waitForPolling(dataDir: string, before: Set<string>, count = 1, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const fresh = workerLogs(dataDir).filter((f) => !before.has(f));
    // Two workers spawned in the same millisecond share a log file: count the lines, not the files.
    const polling = fresh.reduce((n, f) => n + fs.readFileSync(path.join(dataDir, f), 'utf8').split('sluice worker polling').length - 1, 0);
    if (polling >= count) return;
    await sleep(50);
  }
  throw new Error(`${count} new worker(s) not polling after ${timeoutMs} ms (logs in ${dataDir})`);
}

async function inProcessClientOnly(config: ReturnType<typeof loadConfig>): Promise<TestWorker> {
  const adapters = createAdapters(config);
  await migrateToLatest(adapters.db);
  const client = await connectClient(config);
  return { config, adapters, client, worker: undefined as never, track: () => undefined, shutdown: async () => undefined };
}

async function main(): Promise<void> {
  installQuietRuntime();
  const result = { at: new Date().toISOString(), ...(await partialAndSkips()), sigkill: await sigkill(), sigkillWithStandby: await sigkillWithStandby() };
  const json = JSON.stringify(result, null, 2);
  console.log(json);
  fs.mkdirSync('bench-results', { recursive: true });
  fs.writeFileSync(path.join('bench-results', 'recovery.json'), `${json}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
