import { Context } from '@temporalio/activity';
import type { DocumentOwner } from '../contracts/deletion';
import { deleteDocumentRows, markDocumentDeleting } from '../db/repositories/documents';
import { objectKeys } from '../stores/objectKeys';
import type { ActivityDeps } from './deps';
import { mappingFailures } from './toApplicationFailure';

/**
 * The steps of durable deletion (DESIGN.md §7). Each is idempotent, so the workflow can retry
 * any of them after a crash: deleting what is already gone is a no-op.
 */
export function createDeletionActivities(deps: ActivityDeps) {
  return {
    /** Search stops returning the document as soon as it is DELETING. Null: already gone. */
    markDocumentDeleting: mappingFailures(async (documentId: string): Promise<DocumentOwner | null> => {
      const doc = await markDocumentDeleting(deps.db, documentId);
      return doc ? { documentId: doc.id, userId: doc.user_id, datasetId: doc.dataset_id } : null;
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
