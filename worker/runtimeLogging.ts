import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import { STAGE_DURATION_BUCKETS_MS, STAGE_DURATION_METRIC } from '../activities/stageMetrics';

/**
 * The Temporal Runtime logs at this level; must run before the first connection is made.
 * With `prometheusBindAddress` the Runtime also serves the worker's metrics (task slots,
 * poll and schedule-to-start latencies, workflow/activity outcomes...) at
 * http://<address>/metrics; the API's /metrics can relay them (SLUICE_WORKER_METRICS_URL).
 */
export function installRuntimeLogging(level: LogLevel, options: { prometheusBindAddress?: string | null } = {}): void {
  Runtime.install({
    logger: new DefaultLogger(level),
    ...(options.prometheusBindAddress
      ? {
          telemetryOptions: {
            metrics: {
              prometheus: {
                bindAddress: options.prometheusBindAddress,
                // sluice's own stage metrics (activities/stageMetrics.ts) are served here too.
                histogramBucketOverrides: { [STAGE_DURATION_METRIC]: STAGE_DURATION_BUCKETS_MS },
              },
            },
          },
        }
      : {}),
  });
}
