import { proxyActivities } from '@temporalio/workflow';
import type { IngestActivities } from '../activities';
import type { SweepOrphansInput, SweepOrphansResult } from '../activities/maintenance/sweepOrphanedObjects';
import { declareVersioningBehavior } from './versioningBehavior';

// Listing a large store takes a while: 30 minutes, with a heartbeat per page (1,000 keys) so a
// dead worker is noticed within a minute. A failed sweep is simply redone by the next tick.
const sweep = proxyActivities<IngestActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

/** Run by a Temporal schedule: removes objects no document row refers to, and abandoned partial writes. */
export async function sweepOrphanedObjects(input: SweepOrphansInput): Promise<SweepOrphansResult> {
  return sweep.sweepOrphanedObjects(input);
}

// PINNED: a sweep is one activity and ends within its three attempts, so pinning holds an old
// version for one sweep at most, and no change to this workflow needs a patch for the runs in flight.
declareVersioningBehavior('PINNED', sweepOrphanedObjects);
