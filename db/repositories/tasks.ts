import type { Kysely } from 'kysely';
import type { Database, ParseTaskRow } from '../database';

export async function findTask(db: Kysely<Database>, taskId: string): Promise<ParseTaskRow | undefined> {
  return db.selectFrom('parse_tasks').selectAll().where('task_id', '=', taskId).executeTakeFirst();
}

export async function getTask(db: Kysely<Database>, taskId: string): Promise<ParseTaskRow> {
  const task = await findTask(db, taskId);
  if (!task) throw new Error(`parse task ${taskId} does not exist`);
  return task;
}

export async function recordTokenPlan(
  db: Kysely<Database>,
  taskId: string,
  tokenPlanObjectKey: string | null,
): Promise<void> {
  await db
    .updateTable('parse_tasks')
    .set({ token_plan_object_key: tokenPlanObjectKey })
    .where('task_id', '=', taskId)
    .execute();
}
