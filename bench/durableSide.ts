import path from 'node:path';
import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { sql, type Kysely } from 'kysely';
import { connectClient, startIngestion } from '../client/ingestClient';
import { loadConfig } from '../config/config';
import { ingestWorkflowId } from '../contracts/ingest';
import { STAGES, type Stage } from '../contracts/stages';
import type { Database } from '../db/database';
import type { BenchDoc } from './plainPipeline';
import type { BenchSide, DocOutcome, SideTotals } from './side';
import { setAffinity } from './pinning';
import { runWindow } from './window';
import { startWorkerProcess, type WorkerProcess } from './workerProcesses';

export interface DurableOptions {
  env: Record<string, string>;
  workers: number;
  /** Workflows kept open at once (the client side of the window). */
  inflight: number;
  historySample: number;
  logDir: string;
  metricsPortBase: number;
  nodeArgs: string[];
  /** CPU list the worker processes are pinned to (bench/pinning.ts); absent → unpinned. */
  cpus?: string;
  /** Each worker as two processes, one per task queue (SLUICE_WORKER_QUEUES), as the Helm chart runs them. */
  splitQueues?: boolean;
}

/**
 * Side (b): `workers` processes of the production worker entry point on the real dev server and
 * Postgres. Documents are started with the production client helper, at most `inflight` open at
 * once, each timed from its start call until its result.
 */
export async function durableSide(options: DurableOptions, db: Kysely<Database>): Promise<BenchSide> {
  const config = loadConfig({ ...process.env, ...options.env });
  const client = await connectClient(config);
  const workers: WorkerProcess[] = [];
  const metricsUrls: string[] = [];
  const roles = options.splitQueues ? ['ingest', 'embedding'] : ['all'];
  for (let i = 0; i < options.workers * roles.length; i++) {
    const role = roles[i % roles.length] ?? 'all';
    const bind = `127.0.0.1:${options.metricsPortBase + i}`;
    metricsUrls.push(`http://${bind}/metrics`);
    const log = path.join(options.logDir, `worker-${options.workers}-${i}-${role}.log`);
    const env = { ...options.env, SLUICE_WORKER_METRICS_BIND: bind, SLUICE_WORKER_QUEUES: role };
    workers.push(await startWorkerProcess(env, log, options.nodeArgs));
  }
  if (options.cpus)
    setAffinity(
      workers.map((w) => w.child.pid as number),
      options.cpus,
    );
  const cpuUsed = workers.map(() => 0);
  const allDocs: BenchDoc[] = [];
  return {
    label: `b: durable, ${options.workers} worker${options.workers > 1 ? 's' : ''}${options.splitQueues ? ' (ingest + embedding processes each)' : ''}${options.cpus ? `, pinned to cpu ${options.cpus}` : ''}`,
    workerProcesses: options.workers,
    // The workers stay connected between rounds; an idle backend publishes its counts within 10 s.
    settleMs: 11_000,
    async runRound(docs) {
      allDocs.push(...docs);
      const before = workers.map((w) => w.stats().cpuSeconds);
      const run = await runWindow(docs, options.inflight, async (doc): Promise<Omit<DocOutcome, 'ms'>> => {
        const { handle } = await startIngestion(client, config, {
          documentId: doc.documentId,
          userId: doc.userId,
          datasetId: doc.datasetId,
        });
        const result = await handle.result();
        return {
          chunks: result.chunkCount,
          error: result.status === 'SUCCESS' ? null : (result.failureCode ?? 'FAILED'),
        };
      });
      // CPU is counted while documents run, not while the workers idle through the other side's rounds.
      workers.forEach((w, i) => (cpuUsed[i] = (cpuUsed[i] ?? 0) + w.stats().cpuSeconds - (before[i] ?? 0)));
      return { elapsedMs: run.elapsedMs, docs: run.items.map((i) => ({ ms: i.ms, ...i.result })) };
    },
    async finish(): Promise<SideTotals> {
      try {
        const processes = workers.map((w, i) => ({
          peakRssBytes: w.stats().peakRssBytes,
          cpuSeconds: cpuUsed[i] ?? 0,
        }));
        const metrics = (await Promise.all(metricsUrls.map(scrapeSluiceSeries))).flat();
        return {
          processes,
          metrics,
          stageMsTotal: await stageTotals(db, allDocs),
          history: await historySizes(client, allDocs, options.historySample),
        };
      } finally {
        for (const w of workers) await w.stop();
        await client.connection.close();
      }
    },
  };
}

/** Sum over documents of each stage's duration as the pipeline rows record it (activity time). */
async function stageTotals(db: Kysely<Database>, docs: BenchDoc[]): Promise<Record<Stage, number>> {
  const sums = STAGES.map((s) => sql<number>`coalesce(sum(${sql.ref(`p.${s.toLowerCase()}_ms`)}), 0)::int8`.as(s));
  const row = await db
    .selectFrom('pipelines as p')
    .innerJoin('documents as d', 'd.id', 'p.document_id')
    .where('d.dataset_id', '=', docs[0]?.datasetId ?? '')
    .select(sums)
    .executeTakeFirstOrThrow();
  return Object.fromEntries(STAGES.map((s) => [s, Number((row as Record<string, unknown>)[s])])) as Record<
    Stage,
    number
  >;
}

/** Encoded history size of an even sample of the runs, always including the first (largest) document. */
export async function historySizes(
  client: Client,
  docs: BenchDoc[],
  sample: number,
): Promise<NonNullable<SideTotals['history']>> {
  const step = Math.max(1, Math.floor(docs.length / Math.max(1, sample)));
  const sizes: { bytes: number; events: number }[] = [];
  for (const doc of docs.filter((_, i) => i % step === 0)) {
    const history = await client.workflow.getHandle(ingestWorkflowId(doc.documentId)).fetchHistory();
    sizes.push({
      bytes: temporal.api.history.v1.History.encode(history).finish().length,
      events: history.events?.length ?? 0,
    });
  }
  const bytes = sizes.map((s) => s.bytes);
  return {
    sampled: sizes.length,
    meanBytes: Math.round(bytes.reduce((a, b) => a + b, 0) / Math.max(1, bytes.length)),
    maxBytes: Math.max(0, ...bytes),
    meanEvents: Math.round(sizes.reduce((a, s) => a + s.events, 0) / Math.max(1, sizes.length)),
    maxEvents: Math.max(0, ...sizes.map((s) => s.events)),
    largestDocumentBytes: sizes[0]?.bytes ?? 0,
  };
}

async function scrapeSluiceSeries(url: string): Promise<string[]> {
  try {
    const text = await (await fetch(url)).text();
    return text.split('\n').filter((line) => line.startsWith('sluice_') && !line.includes('_bucket{'));
  } catch {
    return [];
  }
}
