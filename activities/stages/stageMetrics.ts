import { Context } from '@temporalio/activity';
import type { Stage } from '../../contracts/stages';

/**
 * Stage metrics, recorded on the activity's metric meter: the Temporal Runtime exports them next
 * to its own worker metrics (same Prometheus endpoint, SLUICE_WORKER_METRICS_BIND), with the
 * Runtime's tags (namespace, task queue, activity type) added. Without a configured exporter
 * the meter is a no-op, so tests and tools pay nothing.
 */
export const STAGE_DURATION_METRIC = 'sluice_stage_duration';

/**
 * Bucket bounds (ms) for stage durations: the Runtime's default ones stop at 10 s, while a large
 * document's CLEANING or VECTORIZING takes minutes (the activities allow 15 minutes and 2 hours).
 */
export const STAGE_DURATION_BUCKETS_MS = [
  10, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000, 300_000, 900_000, 3_600_000,
];

export interface StageMetrics {
  /** One attempt of a stage ended: how long it took and how. */
  attempt(
    stage: Stage,
    outcome: 'success' | 'skipped' | 'failure',
    ms: number,
    failure?: { code: string; retryable: boolean },
  ): void;
  /** Chunks a stage attempt processed (written, embedded, indexed...). */
  chunks(stage: Stage, count: number): void;
}

export function stageMetrics(): StageMetrics {
  const meter = Context.current().metricMeter;
  return {
    attempt(stage, outcome, ms, failure) {
      meter
        .createHistogram(STAGE_DURATION_METRIC, 'int', 'ms', 'Duration of one stage attempt')
        .record(Math.round(ms), { stage, outcome });
      if (failure) {
        meter
          .createCounter(
            'sluice_stage_failures',
            '',
            'Stage attempts that failed, by failure code (a retryable one may still succeed later)',
          )
          .add(1, { stage, code: failure.code, retryable: failure.retryable });
      }
    },
    chunks(stage, count) {
      if (count > 0)
        meter.createCounter('sluice_chunks_processed', '', 'Chunks processed by a stage').add(count, { stage });
    },
  };
}

/** A task that failed for good (retries exhausted or a permanent error): counted once, by code. */
export function countTaskFailure(stage: Stage | null, code: string): void {
  Context.current()
    .metricMeter.createCounter(
      'sluice_task_failures',
      '',
      'Ingestion tasks that ended FAILED, by stage and failure code',
    )
    .add(1, { stage: stage ?? 'NONE', code });
}
