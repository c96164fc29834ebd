import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { SluiceConfig } from '../config/config';

export const SWEEP_SCHEDULE_ID = 'sluice-sweep-stuck-tasks';

/** The periodic stuck-task sweep, as a Temporal schedule (visible and pausable in the Web UI). */
export async function ensureSweepSchedule(client: Client, config: Readonly<SluiceConfig>): Promise<void> {
  if (config.sweepEveryMs === null) return;
  try {
    await client.schedule.create({
      scheduleId: SWEEP_SCHEDULE_ID,
      spec: { intervals: [{ every: config.sweepEveryMs }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      action: {
        type: 'startWorkflow',
        workflowType: 'sweepStuckTasks',
        taskQueue: config.temporal.taskQueue,
        args: [{ stuckAfterMs: config.stuckAfterMs }],
      },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}
