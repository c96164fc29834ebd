import { execFileSync, type ChildProcess } from 'node:child_process';
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
import { killHard } from '../testkit/harness/childWorker';
import { ensureBuilt, polling, spawnCompiledWorker } from './compiledWorker';
import { injectStageFaults } from '../testkit/harness/faultInjection';
import { flakyEmbedders, type FlakyProviderState } from '../testkit/fakes/flakyEmbedder';
import {
  eventually,
  ingestBuffer,
  sectionedMarkdown,
  waitForTask,
  waitTerminal,
} from '../testkit/harness/ingestHelpers';
import { installQuietRuntime } from '../testkit/harness/quietRuntime';
import type { TestWorker } from '../testkit/harness/testWorker';

/**
 * `npm run bench:recovery`: what recovery costs, measured on the real dev server and Postgres,
 * with workers run as production runs them (the compiled `node dist/worker/main.js`, rebuilt
 * first if dist/ is older than the sources).
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

async function inProcessWorker(
  config: ReturnType<typeof loadConfig>,
  provider: FlakyProviderState,
  failOnce: Map<string, Stage>,
  executions: Map<string, number>,
): Promise<TestWorker & { stop(): Promise<void> }> {
  const base = createAdapters(config);
  await migrateToLatest(base.db);
  const adapters = { ...base, embedders: flakyEmbedders(base.embedders, provider) };
  const running = await createSluiceWorker(config, adapters, {
    wrapActivities: injectStageFaults(failOnce, executions),
  });
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

    const b = await ingestBuffer(tw, sectionedMarkdown(50, 'bench-skip'), 'skip.md', scope, {
      beforeStart: (id) => failOnce.set(id, 'SPARSE_VECTORIZING'),
    });
    await waitTerminal(tw.client, b.documentId);
    const runsBefore = STAGES.map((s) => executions.get(`${b.documentId}:${s}`) ?? 0);
    const retryB = await retryDocument(admin, b.documentId);
    await waitForTask(tw.client, b.documentId, retryB.taskId);
    const rerun = STAGES.filter((s, i) => (executions.get(`${b.documentId}:${s}`) ?? 0) > (runsBefore[i] ?? 0));
    return {
      partialEmbedding: {
        chunks: PARTIAL_CHUNKS,
        chunksRemainingAtFailure: remaining,
        textsEmbeddedOnRetry: embeddedOnRetry,
        textsEmbeddedTwice: embedded.length - new Set(embedded).size,
      },
      stageSkips: {
        failedAt: 'SPARSE_VECTORIZING',
        stagesRerunOnRetry: rerun,
        stagesSkippedOnRetry: STAGES.length - rerun.length,
      },
    };
  } finally {
    await tw.stop();
  }
}

const KILLS = Number(process.env.BENCH_KILLS ?? 3);

/** A document of CRASH_CHUNKS chunks, returned once VECTORIZING has embedded a quarter of it. */
async function documentMidVectorizing(
  tw: TestWorker,
  scope: { userId: string; datasetId: string },
  tag: string,
): Promise<string> {
  const { documentId } = await ingestBuffer(tw, sectionedMarkdown(CRASH_CHUNKS, tag), `${tag}.md`, scope);
  await eventually(
    () => countChunks(tw.adapters.db, documentId),
    (c) => c.dense > CRASH_CHUNKS / 4,
    300_000,
    10,
  );
  return documentId;
}

/** Which of `children` runs the document's VECTORIZING attempt (the server records `<pid>@<host>`). */
async function runningVectorizing(tw: TestWorker, documentId: string, children: ChildProcess[]): Promise<ChildProcess> {
  const { raw } = await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).describe();
  const identity = raw.pendingActivities?.find((a) => a.activityType?.name === 'vectorizing')?.lastWorkerIdentity ?? '';
  const running = children.find((c) => identity.startsWith(`${c.pid}@`));
  if (!running) throw new Error(`no spawned worker is ${identity}`);
  return running;
}

/**
 * Milliseconds from `killedAt` until the document embeds again. A batch the killed process had
 * already sent may still commit: the baseline is taken after it. The rest of the document is
 * work, not recovery: the run is terminated so the next kill starts on an idle worker.
 */
async function resumedAfter(
  tw: TestWorker,
  documentId: string,
  killedAt: number,
): Promise<{ resumedMs: number; retryStartedMs: number | null }> {
  await sleep(300);
  const stalled = (await countChunks(tw.adapters.db, documentId)).dense;
  await eventually(
    () => countChunks(tw.adapters.db, documentId),
    (c) => c.dense > stalled,
    300_000,
    20,
  );
  const resumedMs = Date.now() - killedAt;
  const handle = tw.client.workflow.getHandle(ingestWorkflowId(documentId));
  // When the server handed the retried attempt to a worker: what the heartbeat timeout and the
  // retry interval cost, apart from the new attempt's way to its first committed batch.
  const started = (await handle.describe()).raw.pendingActivities?.find(
    (a) => a.activityType?.name === 'vectorizing',
  )?.lastStartedTime;
  const retryStartedMs = started
    ? Number(started.seconds ?? 0) * 1000 + Math.round((started.nanos ?? 0) / 1e6) - killedAt
    : null;
  await handle.terminate('bench: recovery measured');
  return { resumedMs, retryStartedMs };
}

/**
 * (a) SIGKILL of the only worker mid-VECTORIZING, the compiled replacement started at the kill (as
 * a supervisor would). The server notices the dead attempt at the heartbeat timeout (5 s after the
 * last forwarded beat, which the 1 s throttle makes 0–1 s old) and retries it after the retry
 * policy's initial interval; the replacement takes it once it polls, so recovery is the later of
 * the two. Its start-up (spawn to polling) is reported on its own.
 */
async function sigkillWithReplacement() {
  const config = baseConfig({ SLUICE_EMBED_BATCH_SIZE: '2' });
  const tw = await inProcessClientOnly(config);
  const scope = { userId: 'bench', datasetId: `bench-crash-${Date.now()}` };
  let child = spawnCompiledWorker(config);
  const kills: { resumedMs: number; retryStartedMs: number | null; replacementPollingMs: number }[] = [];
  try {
    await polling(child);
    for (let i = 0; i < KILLS; i++) {
      const documentId = await documentMidVectorizing(tw, scope, `bench-crash-${i}`);
      await killHard(child);
      const killedAt = Date.now();
      child = spawnCompiledWorker(config);
      const ready = polling(child).then(() => Date.now() - killedAt);
      const resumed = await resumedAfter(tw, documentId, killedAt);
      kills.push({ ...resumed, replacementPollingMs: await ready });
    }
    return {
      chunks: CRASH_CHUNKS,
      kills,
      medianResumedMs: median(kills.map((k) => k.resumedMs)),
      medianReplacementPollingMs: median(kills.map((k) => k.replacementPollingMs)),
    };
  } finally {
    await killHard(child);
    await tw.adapters.close();
    await tw.client.connection.close();
  }
}

/**
 * (b) The same kill with a second compiled worker already polling (a deployment runs several):
 * recovery is then the heartbeat timeout and the retry interval alone. After each kill a new
 * worker is started and waited for, so every kill finds two workers polling.
 */
async function sigkillWithStandby() {
  const config = baseConfig({ SLUICE_EMBED_BATCH_SIZE: '2' });
  const tw = await inProcessClientOnly(config);
  const scope = { userId: 'bench', datasetId: `bench-standby-${Date.now()}` };
  let children = [spawnCompiledWorker(config), spawnCompiledWorker(config)];
  const kills: { resumedMs: number; retryStartedMs: number | null }[] = [];
  try {
    await Promise.all(children.map((c) => polling(c)));
    for (let i = 0; i < KILLS; i++) {
      const documentId = await documentMidVectorizing(tw, scope, `bench-standby-${i}`);
      const running = await runningVectorizing(tw, documentId, children);
      await killHard(running);
      const killedAt = Date.now();
      kills.push(await resumedAfter(tw, documentId, killedAt));
      const fresh = spawnCompiledWorker(config);
      children = [...children.filter((c) => c !== running), fresh];
      await polling(fresh);
    }
    return { chunks: CRASH_CHUNKS, kills, medianResumedMs: median(kills.map((k) => k.resumedMs)) };
  } finally {
    for (const child of children) await killHard(child);
    await tw.adapters.close();
    await tw.client.connection.close();
  }
}

/**
 * References measured in the same run, on the same (possibly busy) machine: bare `node -e 0`
 * start-up, and the compiled worker's alone (spawn to polling, no kill in flight).
 */
async function startupReference() {
  const node: number[] = [];
  for (let i = 0; i < KILLS; i++) {
    const start = Date.now();
    execFileSync(process.execPath, ['-e', '0']);
    node.push(Date.now() - start);
  }
  const config = baseConfig();
  const worker: number[] = [];
  for (let i = 0; i < KILLS; i++) {
    const start = Date.now();
    const child = spawnCompiledWorker(config);
    try {
      await polling(child);
      worker.push(Date.now() - start);
    } finally {
      await killHard(child);
    }
  }
  return {
    nodeEMs: node,
    medianNodeEMs: median(node),
    compiledWorkerPollingMs: worker,
    medianCompiledWorkerPollingMs: median(worker),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : Math.round(((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2);
}

async function inProcessClientOnly(config: ReturnType<typeof loadConfig>): Promise<TestWorker> {
  const adapters = createAdapters(config);
  await migrateToLatest(adapters.db);
  const client = await connectClient(config);
  return {
    config,
    adapters,
    client,
    worker: undefined as never,
    track: () => undefined,
    shutdown: async () => undefined,
  };
}

async function main(): Promise<void> {
  installQuietRuntime();
  ensureBuilt();
  const loadBefore = os.loadavg();
  const startup = await startupReference();
  const result = {
    at: new Date().toISOString(),
    cpus: os.cpus().length,
    ...(await partialAndSkips()),
    startup,
    sigkillWithReplacement: await sigkillWithReplacement(),
    sigkillWithStandby: await sigkillWithStandby(),
    loadAverage: {
      atStart: loadBefore.map((l) => Number(l.toFixed(2))),
      atEnd: os.loadavg().map((l) => Number(l.toFixed(2))),
    },
  };
  const json = JSON.stringify(result, null, 2);
  console.log(json);
  fs.mkdirSync('bench-results', { recursive: true });
  fs.writeFileSync(path.join('bench-results', 'recovery.json'), `${json}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
