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

/**
 * The task this one retries, when that task's CLEANING never recorded its markdown: an object
 * it may have stored before failing is referenced by no row, so CLEANING removes it first.
 */
export async function predecessorWithoutMarkdown(db: Kysely<Database>, taskId: string): Promise<string | null> {
  const row = await db
    .selectFrom('parse_tasks as t')
    .innerJoin('parse_tasks as p', 'p.task_id', 't.retry_of_task_id')
    .select('p.task_id')
    .where('t.task_id', '=', taskId)
    .where('p.markdown_object_key', 'is', null)
    .executeTakeFirst();
  return row?.task_id ?? null;
}
