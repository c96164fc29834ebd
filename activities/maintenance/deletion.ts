import { requireCallerClaim } from '../../crypto/callerClaim';
import { Context } from '@temporalio/activity';
import type { DeleteInput, DocumentOwner } from '../../contracts/deletion';
import { permanentError } from '../../contracts/sluiceError';
import { deleteDocumentRows, markDocumentDeleting } from '../../db/repositories/documents';
import { objectKeys } from '../../stores/objectKeys';
import type { ActivityDeps } from '../deps';
import { mappingFailures } from '../toApplicationFailure';

/**
 * The steps of durable deletion (DESIGN.md §7). Each is idempotent, so the workflow can retry
 * any of them after a crash: deleting what is already gone is a no-op.
 */
export function createDeletionActivities(deps: ActivityDeps) {
  return {
    /**
     * Search stops returning the document as soon as it is DELETING. Null: already gone. Another
     * user's document is refused (ID_MISMATCH) before anything changes, its ingestion run included,
     * and so is a bare document id (what deletions scheduled before they named their user): a
     * deletion that names no owner would delete any tenant's document.
     */
    markDocumentDeleting: mappingFailures(async (input: DeleteInput | string): Promise<DocumentOwner | null> => {
      if (typeof input === 'string')
        throw permanentError('ID_MISMATCH', `a deletion of document ${input} must name the user it belongs to`);
      requireCallerClaim(deps.callerClaims, input.userId, input.callerClaim);
      const owner = ownerOf(input);
      const doc = await markDocumentDeleting(deps.db, input.documentId, owner);
      if (doc === 'not-owned')
        throw permanentError(
          'ID_MISMATCH',
          `document ${input.documentId} is not a document of user ${owner.userId}${owner.datasetId !== undefined ? ` in dataset ${owner.datasetId}` : ''}`,
        );
      return doc === 'gone' ? null : { documentId: doc.id, userId: doc.user_id, datasetId: doc.dataset_id };
    }),

    cancelIngestion: mappingFailures(async (documentId: string): Promise<void> => {
      await deps.runs.cancelAndWait(documentId, () => Context.current().heartbeat());
    }),

    deleteDocumentVectors: mappingFailures(async (owner: DocumentOwner): Promise<void> => {
      await deps.vectors.deleteDocument(owner, owner.documentId);
    }),

    deleteDocumentKeywords: mappingFailures(async (owner: DocumentOwner): Promise<void> => {
      await deps.keywords.deleteDocument(owner, owner.documentId);
    }),

    deleteDocumentObjects: mappingFailures(async (owner: DocumentOwner): Promise<number> => {
      return deps.objects.deletePrefix(objectKeys.documentPrefix(owner.userId, owner.documentId));
    }),

    /** Last: the rows are what let every earlier step find its data. Cascades to tasks and chunks. */
    deleteDocumentRows: mappingFailures(async (documentId: string): Promise<void> => {
      await deleteDocumentRows(deps.db, documentId);
    }),
  };
}

/** The owner a deletion names; an input without a user (outside the contract) is refused. */
function ownerOf(input: DeleteInput): { userId: string; datasetId?: string } {
  if (typeof input.userId !== 'string' || input.userId === '')
    throw permanentError('ID_MISMATCH', `a deletion of document ${input.documentId} must name the user it belongs to`);
  return input.datasetId === undefined
    ? { userId: input.userId }
    : { userId: input.userId, datasetId: input.datasetId };
}
