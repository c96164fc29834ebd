import { DefaultLogger, Runtime, type LogLevel, type LogMetadata } from '@temporalio/worker';
import { STAGE_DURATION_BUCKETS_MS, STAGE_DURATION_METRIC } from '../activities/stages/stageMetrics';

/**
 * What the SDK says, as a warning, when a Worker has no workflows. The embedding queue's Worker
 * (createWorker.ts) has none by design: VECTORIZING gets slots and a rate limit of its own while
 * every workflow task stays on the main queue, and a Worker cannot be activity-only without it.
 * So this one message, which describes the intended set-up, is logged at DEBUG; every other
 * warning stays a warning.
 */
export const ACTIVITY_ONLY_WORKER_NOTICE = 'No workflows registered, not polling for workflow tasks';

export class SluiceRuntimeLogger extends DefaultLogger {
  override log(level: LogLevel, message: string, meta?: LogMetadata): void {
    super.log(level === 'WARN' && message === ACTIVITY_ONLY_WORKER_NOTICE ? 'DEBUG' : level, message, meta);
  }
}

/**
 * The Temporal Runtime logs at this level; must run before the first connection is made.
 * With `prometheusBindAddress` the Runtime also serves the worker's metrics (task slots,
 * poll and schedule-to-start latencies, workflow/activity outcomes...) at
 * http://<address>/metrics; the API's /metrics can relay them (SLUICE_WORKER_METRICS_URL).
 */
export function installRuntimeLogging(level: LogLevel, options: { prometheusBindAddress?: string | null } = {}): void {
  Runtime.install({
    logger: new SluiceRuntimeLogger(level),
    ...(options.prometheusBindAddress
      ? {
          telemetryOptions: {
            metrics: {
              prometheus: {
                bindAddress: options.prometheusBindAddress,
                // sluice's own stage metrics (activities/stages/stageMetrics.ts) are served here too.
                histogramBucketOverrides: { [STAGE_DURATION_METRIC]: STAGE_DURATION_BUCKETS_MS },
              },
            },
          },
        }
      : {}),
  });
}
