import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChunkingPlan, ChunkingStrategy, PlannedChunking, PlanState } from '../../contracts/chunkingPlan';
import type { ChunkingPlansTable, Database } from '../database';

/** A task's stored plan, as the workflow holds it, plus who confirmed it and when. */
export interface StoredPlan extends PlannedChunking {
  taskId: string;
  documentId: string;
  confirmedBy: string | null;
  createdAt: Date;
  confirmedAt: Date | null;
  executedAt: Date | null;
}

/** The auto-confirm timeout is the workflow's business; the row records what was decided. */
function fromRow(row: Selectable<ChunkingPlansTable>): StoredPlan {
  return {
    taskId: row.task_id,
    documentId: row.document_id,
    state: row.state,
    plan: { strategy: row.strategy, parameters: row.parameters, reason: row.reason },
    recommended: row.recommended,
    review: row.review,
    autoConfirmAfter: null,
    preview: row.preview,
    chunkCount: row.chunk_count,
    confirmedBy: row.confirmed_by,
    createdAt: row.created_at,
    confirmedAt: row.confirmed_at,
    executedAt: row.executed_at,
  };
}

export async function findChunkingPlan(db: Kysely<Database>, taskId: string): Promise<StoredPlan | undefined> {
  const row = await db.selectFrom('chunking_plans').selectAll().where('task_id', '=', taskId).executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

/** The plan of the document's latest task that has one: what `sluice status` and the API show. */
export async function latestPlanOfDocument(db: Kysely<Database>, documentId: string): Promise<StoredPlan | undefined> {
  const row = await db
    .selectFrom('chunking_plans')
    .selectAll()
    .where('document_id', '=', documentId)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? fromRow(row) : undefined;
}

/** Written once per task: a retried plan step finds the row and returns it, so it never proposes twice. */
export async function insertChunkingPlan(
  db: Kysely<Database>,
  taskId: string,
  documentId: string,
  planned: PlannedChunking,
): Promise<StoredPlan> {
  await db
    .insertInto('chunking_plans')
    .values({
      task_id: taskId,
      document_id: documentId,
      state: planned.state,
      strategy: planned.plan.strategy,
      parameters: JSON.stringify(planned.plan.parameters),
      reason: planned.plan.reason,
      recommended: JSON.stringify(planned.recommended),
      review: planned.review,
      preview: JSON.stringify(planned.preview),
      chunk_count: planned.chunkCount,
      confirmed_at: planned.state === 'WAIT_CONFIRM' ? null : new Date(),
    })
    .onConflict((oc) => oc.column('task_id').doNothing())
    .execute();
  return (await findChunkingPlan(db, taskId))!;
}

/** WAIT_CONFIRM → CONFIRMED with the plan as confirmed; a repeat of the same confirmation changes nothing. */
export async function confirmChunkingPlan(
  db: Kysely<Database>,
  taskId: string,
  plan: ChunkingPlan,
  confirmedBy: string | null,
): Promise<void> {
  await db
    .updateTable('chunking_plans')
    .set({
      state: 'CONFIRMED',
      strategy: plan.strategy,
      parameters: JSON.stringify(plan.parameters),
      reason: plan.reason,
      confirmed_by: confirmedBy,
      confirmed_at: sql`now()`,
    })
    .where('task_id', '=', taskId)
    .where('state', '=', 'WAIT_CONFIRM')
    .execute();
}

/** CONFIRMED → EXECUTED once the plan's chunks are written; a retried CHUNKING writes it again, harmlessly. */
export async function markPlanExecuted(db: Kysely<Database>, taskId: string, chunkCount: number): Promise<void> {
  await db
    .updateTable('chunking_plans')
    .set({ state: 'EXECUTED', executed_at: sql`now()`, chunk_count: chunkCount })
    .where('task_id', '=', taskId)
    .execute();
}

/** The state, strategy and reason of each document's latest plan, for document lists (one query). */
export async function latestPlanStatesOf(
  db: Kysely<Database>,
  documentIds: readonly string[],
): Promise<Map<string, { state: PlanState; strategy: ChunkingStrategy; reason: string }>> {
  if (documentIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('chunking_plans')
    .distinctOn('document_id')
    .select(['document_id', 'state', 'strategy', 'reason'])
    .where('document_id', 'in', documentIds)
    .orderBy('document_id')
    .orderBy('created_at', 'desc')
    .execute();
  return new Map(rows.map((r) => [r.document_id, { state: r.state, strategy: r.strategy, reason: r.reason }]));
}
