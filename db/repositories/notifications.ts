import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

export interface NotificationAttempt {
  taskId: string;
  documentId: string;
  event: string;
  payload: Record<string, unknown>;
}

/**
 * One statement writes the outbox row (first attempt) or counts the attempt (a retry); a row
 * already DELIVERED is not updated, so nothing comes back: undefined means "do not send again".
 */
export async function recordNotificationAttempt(
  db: Kysely<Database>,
  attempt: NotificationAttempt,
): Promise<{ id: number } | undefined> {
  return db
    .insertInto('notifications')
    .values({
      task_id: attempt.taskId,
      document_id: attempt.documentId,
      event: attempt.event,
      payload: JSON.stringify(attempt.payload),
      attempts: 1,
    })
    .onConflict((oc) =>
      oc
        .constraint('notifications_task_event_key')
        .doUpdateSet({ attempts: sql`notifications.attempts + 1` })
        .where('notifications.status', '!=', 'DELIVERED'),
    )
    .returning('id')
    .executeTakeFirst();
}

export async function markNotificationDelivered(db: Kysely<Database>, id: number): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ status: 'DELIVERED', delivered_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** The task's notifications still PENDING become FAILED with the delivery error (≤ 1000 chars). */
export async function markNotificationsFailed(db: Kysely<Database>, taskId: string, message: string): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ status: 'FAILED', failure_code: 'RESULT_NOTIFY_FAILED', last_error: message.slice(0, 1000) })
    .where('task_id', '=', taskId)
    .where('status', '=', 'PENDING')
    .execute();
}
