import { sql, type Kysely, type Transaction } from 'kysely';
import { formatFailureReason, type FailureCode } from '../../contracts/failureCodes';
import { STAGES, firstUnfinishedStage, type Stage, type StageStatuses } from '../../contracts/stages';
import type { Database, PipelineRow, PipelineUpdate } from '../database';
import { stageColumns } from './stageColumns';
import { switchServedIndex } from './servedIndex';

/** Thrown when the database refuses a status change that is not allowed from the row's state. */
export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
}

export async function findPipeline(db: Kysely<Database>, taskId: string): Promise<PipelineRow | undefined> {
  return db.selectFrom('pipelines').selectAll().where('task_id', '=', taskId).executeTakeFirst();
}

export async function getPipeline(db: Kysely<Database>, taskId: string): Promise<PipelineRow> {
  const row = await findPipeline(db, taskId);
  if (!row) throw new Error(`pipeline of task ${taskId} does not exist`);
  return row;
}

export function stageStatusesOf(row: PipelineRow): StageStatuses {
  return Object.fromEntries(STAGES.map((stage) => [stage, row[stageColumns(stage).status]])) as StageStatuses;
}

/** Milliseconds since a stage column's start, as the database's clock measures it. */
export const elapsedMs = (startedAtColumn: string) =>
  sql<number>`greatest(0, round(extract(epoch from (now() - ${sql.ref(startedAtColumn)})) * 1000))::int`;

/**
 * An inherited final stage still flips the pipeline to SUCCESS (docs/design.md §3), and with it the
 * document's served index to the task's chunk set (stageTransitions.ts switchServedIndex), in one
 * transaction.
 */
export async function markPipelineSucceeded(db: Kysely<Database>, taskId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const flipped = await trx
      .updateTable('pipelines')
      .set({ pipeline_status: 'SUCCESS', finished_at: new Date(), recover_from_stage: null, updated_at: new Date() })
      .where('task_id', '=', taskId)
      .where('sparse_vectorizing_status', '=', 'SUCCESS')
      .where('pipeline_status', '!=', 'SUCCESS')
      .executeTakeFirst();
    if (flipped.numUpdatedRows > 0n) await switchServedIndex(trx, taskId);
  });
}

/**
 * Terminal failure of a task: the stage (when there is one) and the pipeline become FAILED,
 * and recover_from_stage is the first stage that is not SUCCESS. Never touches a SUCCESS stage.
 */
export async function markTaskFailed(
  db: Kysely<Database>,
  taskId: string,
  failure: { stage: Stage | null; code: FailureCode; message: string },
): Promise<void> {
  await db.transaction().execute((trx) => markTaskFailedIn(trx, taskId, failure));
}

/** markTaskFailed inside a transaction the caller already holds. */
export async function markTaskFailedIn(
  trx: Transaction<Database>,
  taskId: string,
  failure: { stage: Stage | null; code: FailureCode; message: string },
): Promise<void> {
  const row = await trx
    .selectFrom('pipelines')
    .selectAll()
    .where('task_id', '=', taskId)
    .forUpdate()
    .executeTakeFirst();
  if (!row || row.pipeline_status === 'SUCCESS') return;
  const set: Record<string, unknown> = { updated_at: new Date() };
  const statuses = stageStatusesOf(row);
  for (const stage of STAGES) {
    if (statuses[stage] === 'SUCCESS') continue;
    if (statuses[stage] !== 'PROCESSING' && stage !== failure.stage) continue;
    const cols = stageColumns(stage);
    set[cols.status] = 'FAILED';
    statuses[stage] = 'FAILED';
    if (row[cols.startedAt]) set[cols.ms] = elapsedMs(cols.startedAt);
  }
  const recoverFrom = firstUnfinishedStage(statuses);
  Object.assign(set, {
    pipeline_status: 'FAILED',
    failed_stage: failure.stage ?? recoverFrom,
    recover_from_stage: recoverFrom,
    failure_code: failure.code,
    failure_reason: formatFailureReason(failure.code, failure.message),
    finished_at: new Date(),
  });
  await trx
    .updateTable('pipelines')
    .set(set as PipelineUpdate)
    .where('task_id', '=', taskId)
    .execute();
}

/**
 * The take-over compare-and-set: only a FAILED task that nobody superseded yet can be taken
 * over, so of many concurrent retries exactly one wins.
 */
export async function supersedePipeline(
  db: Kysely<Database>,
  oldTaskId: string,
  newTaskId: string,
  expectedStatus: 'FAILED' | 'SUCCESS' = 'FAILED',
): Promise<boolean> {
  const result = await db
    .updateTable('pipelines')
    .set({ superseded_by_task_id: newTaskId, updated_at: new Date() })
    .where('task_id', '=', oldTaskId)
    .where('pipeline_status', '=', expectedStatus)
    .where('superseded_by_task_id', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Tasks still PENDING/PROCESSING whose row has not moved for `stuckAfterMs`, with their document's current task. */
export async function listStuckTasks(
  db: Kysely<Database>,
  stuckAfterMs: number,
): Promise<{ task_id: string; document_id: string; last_task_id: string | null }[]> {
  return db
    .selectFrom('pipelines')
    .innerJoin('documents', 'documents.id', 'pipelines.document_id')
    .select(['pipelines.task_id', 'pipelines.document_id', 'documents.last_task_id'])
    .where('pipelines.pipeline_status', 'in', ['PENDING', 'PROCESSING'])
    .where('pipelines.updated_at', '<', sql<Date>`now() - make_interval(secs => ${stuckAfterMs / 1000})`)
    .execute();
}
