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

export async function insertTask(
  db: Kysely<Database>,
  task: {
    taskId: string;
    documentId: string;
    ownerRunChain: string;
    retryOfTaskId?: string | null;
    detectedType?: string | null;
    markdownObjectKey?: string | null;
    tokenPlanObjectKey?: string | null;
    parseMs?: number | null;
  },
): Promise<void> {
  await db
    .insertInto('parse_tasks')
    .values({
      task_id: task.taskId,
      document_id: task.documentId,
      owner_run_chain: task.ownerRunChain,
      retry_of_task_id: task.retryOfTaskId ?? null,
      detected_type: task.detectedType ?? null,
      markdown_object_key: task.markdownObjectKey ?? null,
      token_plan_object_key: task.tokenPlanObjectKey ?? null,
      parse_ms: task.parseMs ?? null,
    })
    .execute();
}

export async function recordParsedMarkdown(
  db: Kysely<Database>,
  taskId: string,
  parsed: { detectedType: string; markdownObjectKey: string; parseMs: number },
): Promise<void> {
  await db
    .updateTable('parse_tasks')
    .set({ detected_type: parsed.detectedType, markdown_object_key: parsed.markdownObjectKey, parse_ms: parsed.parseMs })
    .where('task_id', '=', taskId)
    .execute();
}

export async function recordTokenPlan(db: Kysely<Database>, taskId: string, tokenPlanObjectKey: string | null): Promise<void> {
  await db.updateTable('parse_tasks').set({ token_plan_object_key: tokenPlanObjectKey }).where('task_id', '=', taskId).execute();
}

export async function listTaskIdsOfDocument(db: Kysely<Database>, documentId: string): Promise<string[]> {
  const rows = await db.selectFrom('parse_tasks').select('task_id').where('document_id', '=', documentId).execute();
  return rows.map((r) => r.task_id);
}
