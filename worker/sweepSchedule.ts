import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { SluiceConfig } from '../config/config';

export const SWEEP_SCHEDULE_ID = 'sluice-sweep-stuck-tasks';
export const ORPHAN_SWEEP_SCHEDULE_ID = 'sluice-sweep-orphaned-objects';

/** One periodic workflow; an existing schedule of that id is left as it is. */
async function ensureSchedule(
  client: Client,
  config: Readonly<SluiceConfig>,
  schedule: { id: string; everyMs: number; workflowType: string; args: unknown[] },
): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: schedule.id,
      spec: { intervals: [{ every: schedule.everyMs }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
      action: {
        type: 'startWorkflow',
        workflowType: schedule.workflowType,
        taskQueue: config.temporal.taskQueue,
        args: schedule.args,
      },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}

/**
 * The periodic sweeps, as Temporal schedules (visible and pausable in the Web UI): stuck tasks
 * to INTERRUPTED_TASK, and objects left behind by uploads that never got their row.
 */
export async function ensureSweepSchedule(client: Client, config: Readonly<SluiceConfig>): Promise<void> {
  if (config.sweepEveryMs !== null) {
    await ensureSchedule(client, config, {
      id: SWEEP_SCHEDULE_ID,
      everyMs: config.sweepEveryMs,
      workflowType: 'sweepStuckTasks',
      args: [{ stuckAfterMs: config.stuckAfterMs }],
    });
  }
  if (config.orphanSweep.everyMs !== null) {
    await ensureSchedule(client, config, {
      id: ORPHAN_SWEEP_SCHEDULE_ID,
      everyMs: config.orphanSweep.everyMs,
      workflowType: 'sweepOrphanedObjects',
      args: [{ graceMs: config.orphanSweep.graceMs }],
    });
  }
}
