import { Context } from '@temporalio/activity';
import type { DocumentOwner } from '../contracts/deletion';
import { objectKeys } from '../stores/objectKeys';
import type { ActivityDeps } from './deps';
import { toApplicationFailure } from './toApplicationFailure';

const guarded =
  <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
  async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } catch (error) {
      throw toApplicationFailure(error);
    }
  };

/**
 * The steps of durable deletion (DESIGN.md §7). Each is idempotent, so the workflow can retry
 * any of them after a crash: deleting what is already gone is a no-op.
 */
export function createDeletionActivities(deps: ActivityDeps) {
  return {
    /** Search stops returning the document as soon as it is DELETING. Null: already gone. */
    markDocumentDeleting: guarded(async (documentId: string): Promise<DocumentOwner | null> => {
      const doc = await deps.db
        .updateTable('documents')
        .set({ lifecycle: 'DELETING', updated_at: new Date() })
        .where('id', '=', documentId)
        .returning(['id', 'user_id', 'dataset_id'])
        .executeTakeFirst();
      return doc ? { documentId: doc.id, userId: doc.user_id, datasetId: doc.dataset_id } : null;
    }),

    cancelIngestion: guarded(async (documentId: string): Promise<void> => {
      await deps.runs.cancelAndWait(documentId, () => Context.current().heartbeat());
    }),

    deleteDocumentVectors: guarded(async (owner: DocumentOwner): Promise<void> => {
      await deps.vectors.deleteDocument(owner, owner.documentId);
    }),

    deleteDocumentKeywords: guarded(async (owner: DocumentOwner): Promise<void> => {
      await deps.keywords.deleteDocument(owner, owner.documentId);
    }),

    deleteDocumentObjects: guarded(async (owner: DocumentOwner): Promise<number> => {
      return deps.objects.deletePrefix(objectKeys.documentPrefix(owner.userId, owner.documentId));
    }),

    /** Last: the rows are what let every earlier step find its data. Cascades to tasks and chunks. */
    deleteDocumentRows: guarded(async (documentId: string): Promise<void> => {
      await deps.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('notifications').where('document_id', '=', documentId).execute();
        await trx.deleteFrom('documents').where('id', '=', documentId).execute();
      });
    }),
  };
}
