import { sql } from 'kysely';
import type { IngestResult } from '../contracts/ingest';
import type { ActivityDeps } from './deps';
import { toApplicationFailure } from './toApplicationFailure';

/**
 * Result notification through the outbox: the row is written once per task and event (a retried
 * activity finds it), delivered, and marked; a delivered notification is never sent again.
 */
export function createNotifyResultActivity(deps: ActivityDeps) {
  return async function notifyResult(result: IngestResult): Promise<void> {
    try {
      const event = result.status === 'SUCCESS' ? 'ingest.succeeded' : 'ingest.failed';
      const payload = {
        documentId: result.documentId,
        taskId: result.taskId,
        status: result.status,
        failedStage: result.failedStage,
        failureCode: result.failureCode,
        chunkCount: result.chunkCount,
      };
      await deps.db
        .insertInto('notifications')
        .values({ task_id: result.taskId, document_id: result.documentId, event, payload: JSON.stringify(payload) })
        .onConflict((oc) => oc.constraint('notifications_task_event_key').doNothing())
        .execute();
      const row = await deps.db
        .selectFrom('notifications')
        .select(['id', 'status'])
        .where('task_id', '=', result.taskId)
        .where('event', '=', event)
        .executeTakeFirstOrThrow();
      if (row.status === 'DELIVERED') return;
      await deps.db.updateTable('notifications').set({ attempts: sql`attempts + 1` }).where('id', '=', row.id).execute();
      // Between delivery and this mark a crash would redeliver: the delivery id lets receivers dedupe.
      await deps.notifier.deliver({ event, deliveryId: String(row.id), documentId: result.documentId, taskId: result.taskId, payload });
      await deps.db.updateTable('notifications').set({ status: 'DELIVERED', delivered_at: new Date() }).where('id', '=', row.id).execute();
    } catch (error) {
      throw toApplicationFailure(error);
    }
  };
}

/** Delivery finally failed: the outbox row says so; the pipeline keeps the status it had. */
export function createRecordNotifyFailureActivity(deps: ActivityDeps) {
  return async function recordNotifyFailure(failure: { taskId: string; message: string }): Promise<void> {
    try {
      await deps.db
        .updateTable('notifications')
        .set({ status: 'FAILED', failure_code: 'RESULT_NOTIFY_FAILED', last_error: failure.message.slice(0, 1000) })
        .where('task_id', '=', failure.taskId)
        .where('status', '=', 'PENDING')
        .execute();
    } catch (error) {
      throw toApplicationFailure(error);
    }
  };
}
