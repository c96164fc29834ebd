import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

export interface RemoteParseTask {
  remoteTaskId: string;
  startedAt: Date;
}

/** The parsing service's task recorded for this task's CLEANING, if one was created. */
export async function findRemoteParseTask(db: Kysely<Database>, taskId: string): Promise<RemoteParseTask | undefined> {
  const row = await db
    .selectFrom('parse_tasks')
    .select(['remote_parse_task_id', 'remote_parse_started_at'])
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  if (!row?.remote_parse_task_id || !row.remote_parse_started_at) return undefined;
  return { remoteTaskId: row.remote_parse_task_id, startedAt: new Date(row.remote_parse_started_at) };
}

/**
 * Records the remote task unless one is recorded already (two attempts overlapping after a lost
 * heartbeat): returns the one that counts, which every attempt then polls.
 */
export async function recordRemoteParseTask(
  db: Kysely<Database>,
  taskId: string,
  remoteTaskId: string,
): Promise<RemoteParseTask> {
  await db
    .updateTable('parse_tasks')
    .set({ remote_parse_task_id: remoteTaskId, remote_parse_started_at: sql`now()` })
    .where('task_id', '=', taskId)
    .where('remote_parse_task_id', 'is', null)
    .execute();
  const recorded = await findRemoteParseTask(db, taskId);
  if (!recorded) throw new Error(`task ${taskId} has no parse_tasks row`);
  return recorded;
}
