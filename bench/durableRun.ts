import path from 'node:path';
import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { sql, type Kysely } from 'kysely';
import { connectClient, startIngestion } from '../client/ingestClient';
import { loadConfig } from '../config/config';
import { ingestWorkflowId, type IngestResult } from '../contracts/ingest';
import { STAGES, type Stage } from '../contracts/stages';
import type { Database } from '../db/database';
import type { BenchDoc } from './plainPipeline';
import { runWindow, type Timed } from './window';
import { startWorkerProcess, type WorkerProcess } from './workerProcesses';

export interface DurableOutcome {
  status: IngestResult['status'];
  chunks: number;
  failureCode: string | null;
}

export interface DurableRunResult {
  workers: number;
  elapsedMs: number;
  docs: Timed<DurableOutcome>[];
  workerStats: { peakRssBytes: number; cpuSeconds: number }[];
  /** Sum over documents of each stage's duration as the pipeline rows record it (activity time). */
  stageMsTotal: Record<Stage, number>;
  history: { sampled: number; meanBytes: number; maxBytes: number; maxEvents: number; largestDocumentBytes: number };
  /** What the workers' Prometheus endpoints said at the end (sluice_* series only). */
  metrics: string[];
}

/**
 * Side (b): `workers` worker processes (the production entry point) on the real dev server and
 * Postgres; the documents are started through the production client helper, at most `inflight`
 * open at once, each timed from its start call until its result.
 */
export async function durableRun(
  env: Record<string, string>,
  docs: BenchDoc[],
  options: { workers: number; inflight: number; historySample: number; logDir: string; metricsPortBase: number; nodeArgs: string[] },
  db: Kysely<Database>,
): Promise<DurableRunResult> {
  const workers: WorkerProcess[] = [];
  const metricsUrls: string[] = [];
  const config = loadConfig({ ...process.env, ...env });
  const client = await connectClient(config);
  try {
    for (let i = 0; i < options.workers; i++) {
      const bind = `127.0.0.1:${options.metricsPortBase + i}`;
      metricsUrls.push(`http://${bind}/metrics`);
      workers.push(await startWorkerProcess({ ...env, SLUICE_WORKER_METRICS_BIND: bind }, path.join(options.logDir, `worker-${options.workers}-${i}.log`), options.nodeArgs));
    }
    const run = await runWindow(docs, options.inflight, async (doc): Promise<DurableOutcome> => {
      const { handle } = await startIngestion(client, config, { documentId: doc.documentId, userId: doc.userId, datasetId: doc.datasetId });
      const result = await handle.result();
      return { status: result.status, chunks: result.chunkCount, failureCode: result.failureCode };
    });
    const workerStats = workers.map((w) => w.stats());
    const metrics = (await Promise.all(metricsUrls.map(scrapeSluiceSeries))).flat();
    return {
      workers: options.workers,
      elapsedMs: run.elapsedMs,
      docs: run.items,
      workerStats,
      stageMsTotal: await stageTotals(db, docs),
      history: await historySizes(client, docs, options.historySample),
      metrics,
    };
  } finally {
    for (const w of workers) await w.stop();
    await client.connection.close();
  }
}

async function stageTotals(db: Kysely<Database>, docs: BenchDoc[]): Promise<Record<Stage, number>> {
  const datasetId = docs[0]?.datasetId ?? '';
  const sums = STAGES.map((s) => sql<number>`coalesce(sum(${sql.ref(`p.${s.toLowerCase()}_ms`)}), 0)::int8`.as(s));
  const row = await db
    .selectFrom('pipelines as p')
    .innerJoin('documents as d', 'd.id', 'p.document_id')
    .where('d.dataset_id', '=', datasetId)
    .select(sums)
    .executeTakeFirstOrThrow();
  return Object.fromEntries(STAGES.map((s) => [s, Number((row as Record<string, unknown>)[s])])) as Record<Stage, number>;
}

/** Encoded history size of an even sample of the runs, always including the first (largest) document. */
async function historySizes(client: Client, docs: BenchDoc[], sample: number): Promise<DurableRunResult['history']> {
  const step = Math.max(1, Math.floor(docs.length / Math.max(1, sample)));
  const picked = docs.filter((_, i) => i % step === 0);
  const sizes: { bytes: number; events: number }[] = [];
  for (const doc of picked) {
    const history = await client.workflow.getHandle(ingestWorkflowId(doc.documentId)).fetchHistory();
    sizes.push({ bytes: temporal.api.history.v1.History.encode(history).finish().length, events: history.events?.length ?? 0 });
  }
  const bytes = sizes.map((s) => s.bytes);
  return {
    sampled: sizes.length,
    meanBytes: Math.round(bytes.reduce((a, b) => a + b, 0) / Math.max(1, bytes.length)),
    maxBytes: Math.max(0, ...bytes),
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
