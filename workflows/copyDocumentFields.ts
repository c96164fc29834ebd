import { proxyActivities } from '@temporalio/workflow';
import type { IngestActivities } from '../activities';
import { declareVersioningBehavior } from './versioningBehavior';

// A metadata change must reach every copy whatever happens: the copy is idempotent (a store keeps
// only the newest version) and retried without an attempt limit, backing off to 5 minutes, so a
// store that is down only delays it, as for a deletion.
const steps = proxyActivities<IngestActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * Copies a document's metadata and system fields, after a change, to the stores that filter on a
 * copy (docs/search.md, "Filters"). Returns the version it copied; null when the document is gone.
 */
export async function copyDocumentFields(documentId: string): Promise<number | null> {
  return steps.copyDocumentFields(documentId);
}

// PINNED: one activity, over within its retries, so pinning holds an old version for one copy at most.
declareVersioningBehavior('PINNED', copyDocumentFields);
