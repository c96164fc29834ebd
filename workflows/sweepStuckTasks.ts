import { proxyActivities } from '@temporalio/workflow';
import type { IngestActivities } from '../activities';
import { declareVersioningBehavior } from './versioningBehavior';

// One sweep is a query and a few updates; a failed sweep is simply redone by the next tick.
const sweep = proxyActivities<IngestActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3 },
});

/**
 * Run by a Temporal schedule: converges tasks whose run is gone to INTERRUPTED_TASK, and retires
 * chunk sets a finished rebuild left behind.
 */
export async function sweepStuckTasks(input: {
  stuckAfterMs: number;
}): Promise<{ swept: string[]; retired?: string[] }> {
  return sweep.sweepStuckTasks(input);
}

// PINNED: a sweep is one activity and ends within its retries, so pinning holds an old version for
// minutes at most, and no change to this workflow ever needs a patch for the runs in flight.
declareVersioningBehavior('PINNED', sweepStuckTasks);
