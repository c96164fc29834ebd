import type { IngestResult } from '../../contracts/ingest';
import {
  markNotificationDelivered,
  markNotificationsFailed,
  recordNotificationAttempt,
} from '../../db/repositories/notifications';
import { findTask } from '../../db/repositories/tasks';
import type { ActivityDeps } from '../deps';
import { mappingFailures } from '../toApplicationFailure';

/**
 * Result notification through the outbox: the row is written once per task and event (a retried
 * activity finds it), delivered, and marked; a delivered notification is never sent again.
 */
export function createNotifyResultActivity(deps: ActivityDeps) {
  return mappingFailures(async function notifyResult(result: IngestResult): Promise<void> {
    const event = result.status === 'SUCCESS' ? 'ingest.succeeded' : 'ingest.failed';
    const payload = {
      documentId: result.documentId,
      taskId: result.taskId,
      status: result.status,
      failedStage: result.failedStage,
      failureCode: result.failureCode,
      chunkCount: result.chunkCount,
    };
    // A task is notified for its own document only: the outbox row is keyed by task and event, so a
    // row written for another document would also stand in for the owner's own notification.
    const task = await findTask(deps.db, result.taskId);
    if (task && task.document_id !== result.documentId) return;
    // Nothing comes back for a row already DELIVERED: nothing is sent again.
    const row = await recordNotificationAttempt(deps.db, {
      taskId: result.taskId,
      documentId: result.documentId,
      event,
      payload,
    });
    if (!row) return;
    // Between delivery and this mark a crash would redeliver: the delivery id lets receivers dedupe.
    await deps.notifier.deliver({
      event,
      deliveryId: String(row.id),
      documentId: result.documentId,
      taskId: result.taskId,
      payload,
    });
    await markNotificationDelivered(deps.db, row.id);
  });
}

/** Delivery finally failed: the outbox row says so; the pipeline keeps the status it had. */
export function createRecordNotifyFailureActivity(deps: ActivityDeps) {
  return mappingFailures(async function recordNotifyFailure(failure: {
    taskId: string;
    message: string;
  }): Promise<void> {
    await markNotificationsFailed(deps.db, failure.taskId, failure.message);
  });
}
