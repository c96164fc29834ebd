import { ActivityFailure, ApplicationFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { IngestActivities } from '../activities';
import type { DeleteInput, DeleteResult, DocumentOwner } from '../contracts/deletion';
import { startDeletion } from './attachmentRuns';
import { declareVersioningBehavior } from './versioningBehavior';

// Deletion must finish whatever happens: every step is idempotent and retried without an
// attempt limit (none is set), backing off to 5 minutes, so a store that is down only delays it.
const steps = proxyActivities<IngestActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

// Waiting for the ingestion run to close can take as long as its current activity; it
// heartbeats while it waits so a dead worker is noticed.
const cancelSteps = proxyActivities<IngestActivities>({
  startToCloseTimeout: '3 hours',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * Durable deletion (DESIGN.md §7): mark DELETING (search stops returning the document), cancel
 * the ingestion run and wait until it has closed, delete the documents attached to it (an
 * e-mail's attachments), then delete vectors → keyword entries → objects → rows. Rows go last
 * because they are how every earlier step finds its data.
 */
export async function deleteDocument(input: DeleteInput): Promise<DeleteResult> {
  // The owner check comes first: a deletion another user asks for changes nothing, not even the run.
  const owner = await steps.markDocumentDeleting(input).catch(refusedAsWorkflowFailure);
  await cancelSteps.cancelIngestion(input.documentId);
  if (!owner) return { documentId: input.documentId, existed: false, objectsDeleted: 0 };
  await deleteAttachments(owner, input);
  await steps.deleteDocumentVectors(owner);
  await steps.deleteDocumentKeywords(owner);
  const objectsDeleted = await steps.deleteDocumentObjects(owner);
  await steps.deleteDocumentRows(input.documentId);
  return { documentId: input.documentId, existed: true, objectsDeleted };
}

/**
 * Each document attached to the message (docs/documents.md, "Mail") is deleted by its own
 * `delete:<documentId>` child, awaited, until none is left: the message's run is closed by now, so
 * no new one appears. One whose deletion is already running (its message's new version dropped it)
 * is waited for by asking again.
 */
async function deleteAttachments(owner: DocumentOwner, input: DeleteInput): Promise<void> {
  for (;;) {
    const attached = await steps.attachedDocuments(owner);
    if (attached.length === 0) return;
    let othersRunning = false;
    for (const documentId of attached) {
      const child = await startDeletion(owner, input, documentId);
      if (child) await child.result();
      else othersRunning = true;
    }
    // A deletion that rides out a store outage may take minutes: asked again at a pace that keeps the history small.
    if (othersRunning) await sleep('30 seconds');
  }
}

/** A refused owner check fails the deletion with its own code, where callers read the failure's cause. */
function refusedAsWorkflowFailure(error: unknown): never {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  if (cause instanceof ApplicationFailure && (cause.type === 'ID_MISMATCH' || cause.type === 'CALLER_CLAIM_INVALID'))
    throw ApplicationFailure.create({ type: cause.type, message: cause.message, nonRetryable: true });
  throw error;
}

// PINNED: the deletion order is the contract (rows last, because every earlier step finds its data
// through them), so a run keeps the order it began with; it lasts as long as its stores are down,
// and the old version's workers stay until it ends.
declareVersioningBehavior('PINNED', deleteDocument);
