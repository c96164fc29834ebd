import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { connectClient, startIngestion } from '../client/ingestClient';
import { loadConfig } from '../config/config';
import { createDb } from '../db/connection';
import { createAdapters } from '../composition/adapters';
import { resetBenchDatabase } from './benchDatabase';
import { ensureCorpus, pickPages, smallNotes } from './corpus';
import { historySizes } from './durableSide';
import { registerCorpus } from './registerCorpus';
import { backlogPeak, sampleUntilFinished } from './burstSampler';
import { benchSettings, sluiceEnv } from './settings';
import { percentile, runWindow } from './window';
import { startWorkerProcess, type WorkerProcess } from './workerProcesses';

/**
 * `npm run bench:burst` (by hand): BENCH_BURST_DOCS corpus pages (1,000) started at once, as an
 * upload of a whole manual would, on BENCH_WORKERS worker processes (1). Reports how long until
 * every run closed, the workers' peak memory, and the largest histories next to Temporal's
 * limits (51,200 events, 50 MB), and both task queues' backlog every 2 s (the signal KEDA scales
 * the workers on; docs/kubernetes.md). BENCH_SPLIT_QUEUES=1 runs each worker as one ingest and
 * one embedding process, as the Helm chart deploys them. JSON on stdout and in
 * bench-results/burst-<workers>.json. BENCH_BURST_SMALL=1 starts generated notes of about 500 bytes
 * instead of manual pages, so the burst can be larger than the manual (10,000). A run still open
 * BENCH_BURST_STUCK_AFTER_S (300) after the last document finished counts as stuck: listed in the
 * JSON, and the bench exits 1. BENCH_BURST_DEADLINE_S bounds the whole run on a slow machine: past
 * it the report says how far the drain got (`drained: false`) with the samples so far.
 */
const HISTORY_EVENT_LIMIT = 51_200;
const HISTORY_BYTE_LIMIT = 50 * 2 ** 20;

async function main(): Promise<void> {
  const s = benchSettings();
  const count = Number(process.env.BENCH_BURST_DOCS ?? 1000);
  const workers = s.workerCounts[0] ?? 1;
  const split = process.env.BENCH_SPLIT_QUEUES === '1';
  const env = sluiceEnv(s);
  const config = loadConfig({ ...process.env, ...env });
  await resetBenchDatabase(s.databaseUrl);
  const registering = createAdapters(config);
  const small = process.env.BENCH_BURST_SMALL === '1';
  const stuckAfterMs = Number(process.env.BENCH_BURST_STUCK_AFTER_S ?? 300) * 1000;
  const deadlineMs = Number(process.env.BENCH_BURST_DEADLINE_S ?? Infinity) * 1000;
  const files = small ? smallNotes(count) : pickPages(ensureCorpus(), count);
  const docs = await registerCorpus(registering, files, {
    userId: 'bench',
    datasetId: 'burst',
  });
  await registering.close();

  const db = createDb(s.databaseUrl, 1);
  const client = await connectClient(config);
  const procs: WorkerProcess[] = [];
  try {
    for (let i = 0; i < workers; i++) {
      for (const queues of split ? ['ingest', 'embedding'] : ['all']) {
        const log = path.join(s.dataDir, `burst-worker-${i}-${queues}.log`);
        procs.push(await startWorkerProcess({ ...env, SLUICE_WORKER_QUEUES: queues }, log));
      }
    }
    console.error(
      `burst: ${docs.length} documents, ${workers} worker process(es), load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const loadAverageBefore = os.loadavg();
    const t0 = Date.now();
    const sampling = sampleUntilFinished({
      client,
      namespace: config.temporal.namespace,
      taskQueue: s.taskQueue,
      db,
      datasetId: 'burst',
      total: docs.length,
      t0,
      everyMs: 2000,
      stuckAfterMs,
      deadlineMs,
    });
    // As fast as the client can start them: 50 start calls in flight, no waiting for results.
    const started = await runWindow(docs, 50, (doc) =>
      startIngestion(client, config, { documentId: doc.documentId, userId: doc.userId, datasetId: doc.datasetId }),
    );
    const allStartedMs = Date.now() - t0;
    const { samples: backlog, finished, stalled, pastDeadline } = await sampling;
    const finishedMs = Date.now() - t0;
    // Finished in Postgres; the runs then notify and close (a failed one after SLUICE_RETRY_WAIT).
    // One still open long after that is stuck.
    const openRuns = `WorkflowType = 'ingestDocument' AND DatasetId = 'burst' AND TaskQueue = '${s.taskQueue}' AND ExecutionStatus = 'Running'`;
    while (
      !pastDeadline &&
      (await client.workflow.count(openRuns)).count > 0 &&
      Date.now() - t0 - finishedMs < stuckAfterMs
    )
      await sleep(1000);
    const stuck: string[] = [];
    const stillOpen = (await client.workflow.count(openRuns)).count;
    // Past the deadline, open runs are work not reached yet; only a stalled drain has stuck runs.
    if (!pastDeadline || stalled)
      for await (const run of client.workflow.list({ query: openRuns })) stuck.push(run.workflowId);
    const closedMs = Date.now() - t0;
    const { rows } = await sql<{ status: string; latency_ms: number }>`
      SELECT p.pipeline_status AS status, extract(epoch FROM (p.finished_at - ${new Date(t0)}::timestamptz)) * 1000 AS latency_ms
        FROM pipelines p JOIN documents d ON d.id = p.document_id WHERE d.dataset_id = 'burst'`.execute(db);
    const latencies = rows
      .filter((r) => r.status === 'SUCCESS' || r.status === 'FAILED')
      .map((r) => Number(r.latency_ms));
    const stats = procs.map((p) => p.stats());
    const history = await historySizes(client, docs, s.historySample);
    const result = {
      at: new Date().toISOString(),
      documents: docs.length,
      documentKind: small ? 'generated notes (~500 bytes)' : 'postgresql-doc-15 pages',
      temporal: { address: config.temporal.address, namespace: config.temporal.namespace },
      workerProcesses: workers,
      splitQueues: split,
      failed: rows.filter((r) => r.status === 'FAILED').length,
      allStartedS: allStartedMs / 1000,
      allFinishedS: finishedMs / 1000,
      allClosedS: closedMs / 1000,
      docsPerS: Number((finished / (finishedMs / 1000)).toFixed(2)),
      finishedAfterStartMs: {
        p50: Math.round(percentile(latencies, 50)),
        p95: Math.round(percentile(latencies, 95)),
        max: Math.round(percentile(latencies, 100)),
      },
      workers: stats.map((w) => ({
        peakRssMB: Math.round(w.peakRssBytes / 2 ** 20),
        cpuSeconds: Number(w.cpuSeconds.toFixed(1)),
      })),
      history: {
        ...history,
        eventsOfLimit: history.maxEvents / HISTORY_EVENT_LIMIT,
        bytesOfLimit: history.maxBytes / HISTORY_BYTE_LIMIT,
      },
      startsOk: started.items.length,
      drained: finished === docs.length && stillOpen === 0,
      finishedDocuments: finished,
      openRunsAtEnd: stillOpen,
      stoppedAtDeadline: pastDeadline,
      stuckRuns: stuck,
      backlogPeak: backlogPeak(backlog),
      backlog,
      machine: { cpus: os.cpus().length, loadAverageBefore, loadAverageAfter: os.loadavg() },
    };
    const json = JSON.stringify(result, null, 2);
    console.log(json);
    fs.mkdirSync(path.dirname(s.outFile), { recursive: true });
    const name = process.env.BENCH_OUT ?? `burst-${workers}${split ? '-split' : ''}${small ? `-${count}` : ''}.json`;
    fs.writeFileSync(path.join(path.dirname(s.outFile), name), `${json}\n`);
    if (stuck.length > 0) {
      console.error(`burst: ${stuck.length} run(s) still open ${stuckAfterMs / 1000} s after the last finished`);
      process.exitCode = 1;
    }
  } finally {
    for (const p of procs) await p.stop();
    await client.connection.close();
    await db.destroy();
    fs.rmSync(path.join(s.dataDir, 'objects'), { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
