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
      // One statement writes the row (first attempt) or counts the attempt (a retry); a row already
      // DELIVERED is not updated, so nothing comes back and nothing is sent again.
      const row = await deps.db
        .insertInto('notifications')
        .values({ task_id: result.taskId, document_id: result.documentId, event, payload: JSON.stringify(payload), attempts: 1 })
        .onConflict((oc) =>
          oc
            .constraint('notifications_task_event_key')
            .doUpdateSet({ attempts: sql`notifications.attempts + 1` })
            .where('notifications.status', '!=', 'DELIVERED'),
        )
        .returning('id')
        .executeTakeFirst();
      if (!row) return;
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
