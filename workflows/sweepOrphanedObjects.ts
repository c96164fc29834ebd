import { proxyActivities, setWorkflowOptions } from '@temporalio/workflow';
import type { IngestActivities } from '../activities';
import type { SweepOrphansInput, SweepOrphansResult } from '../activities/sweepOrphanedObjects';

// Listing a large store takes a while: 30 minutes, with a heartbeat per page (1,000 keys) so a
// dead worker is noticed within a minute. A failed sweep is simply redone by the next tick.
const sweep = proxyActivities<IngestActivities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

/** Run by a Temporal schedule: removes objects no document row refers to, and abandoned partial writes. */
// Worker Versioning: AUTO_UPGRADE. A scheduled sweep is one activity call with no state to
// protect: whichever version is current runs it, and no old worker is kept up for it.
setWorkflowOptions({ versioningBehavior: 'AUTO_UPGRADE' }, sweepOrphanedObjects);

export async function sweepOrphanedObjects(input: SweepOrphansInput): Promise<SweepOrphansResult> {
  return sweep.sweepOrphanedObjects(input);
}
