import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { sql, type Kysely } from 'kysely';
import { embeddingTaskQueue } from '../contracts/taskQueues';
import type { Database } from '../db/database';
import { taskQueueBacklog, type Backlog } from './taskQueueBacklog';

/** Both task queues' backlog (the signal KEDA scales the workers on) and the documents finished. */
export interface BacklogSample {
  tS: number;
  finished: number;
  main: Backlog;
  embedding: Backlog;
}

/**
 * Samples every `everyMs` from `t0` (while the documents are still being started, too) until all
 * `total` documents of the dataset have finished in Postgres, or none has finished for
 * `stuckAfterMs` (whatever is open then is stuck, for the caller to list), or `deadlineMs` after
 * `t0` has passed (a run bounded in time on a slow machine: the drain is then unfinished, not stuck).
 */
export async function sampleUntilFinished(o: {
  client: Client;
  namespace: string;
  taskQueue: string;
  db: Kysely<Database>;
  datasetId: string;
  total: number;
  t0: number;
  everyMs: number;
  stuckAfterMs: number;
  deadlineMs: number;
}): Promise<{ samples: BacklogSample[]; finished: number; stalled: boolean; pastDeadline: boolean }> {
  const samples: BacklogSample[] = [];
  let finished = 0;
  let lastProgressAt = o.t0;
  const stalled = () => Date.now() - lastProgressAt >= o.stuckAfterMs;
  const pastDeadline = () => Date.now() - o.t0 >= o.deadlineMs;
  while (finished < o.total && !stalled() && !pastDeadline()) {
    await sleep(o.everyMs);
    const [main, embedding] = await Promise.all([
      taskQueueBacklog(o.client, o.namespace, o.taskQueue),
      taskQueueBacklog(o.client, o.namespace, embeddingTaskQueue(o.taskQueue)),
    ]);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pipelines p JOIN documents d ON d.id = p.document_id
       WHERE d.dataset_id = ${o.datasetId} AND p.pipeline_status IN ('SUCCESS', 'FAILED')`.execute(o.db);
    const now = rows[0]?.n ?? 0;
    if (now > finished) lastProgressAt = Date.now();
    finished = now;
    const tS = Math.round((Date.now() - o.t0) / 1000);
    samples.push({ tS, finished, main, embedding });
    console.error(
      `burst: ${finished}/${o.total} finished after ${tS} s, backlog ${JSON.stringify({ main, embedding })}`,
    );
  }
  return {
    samples,
    finished,
    stalled: finished < o.total && stalled(),
    pastDeadline: finished < o.total && pastDeadline(),
  };
}

/** The largest backlog seen on each queue, and when: the drain is the fall from there. */
export function backlogPeak(samples: BacklogSample[]) {
  const peakOf = (pick: (x: BacklogSample) => number) =>
    samples.reduce((best, x) => (pick(x) > best.tasks ? { tasks: pick(x), tS: x.tS } : best), { tasks: 0, tS: 0 });
  return {
    mainWorkflowTasks: peakOf((x) => x.main.workflow),
    mainActivityTasks: peakOf((x) => x.main.activity),
    embeddingActivityTasks: peakOf((x) => x.embedding.activity),
  };
}
