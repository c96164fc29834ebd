import { sql, type Kysely, type Transaction } from 'kysely';
import { formatFailureReason, type FailureCode } from '../../contracts/failureCodes';
import { STAGES, type Stage, type StageStatuses } from '../../contracts/stages';
import type { Database, PipelineRow, PipelineUpdate } from '../database';
import { stageColumns } from './stageColumns';

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

/**
 * A new pipeline row; `inherited` stages start as SUCCESS with the durations they took before.
 * Returns the row as stored (defaults included), saving the caller a read-back.
 */
export async function insertPipeline(
  db: Kysely<Database>,
  row: { taskId: string; documentId: string; inherited?: Partial<Record<Stage, number | null>> },
): Promise<PipelineRow> {
  const values: Record<string, unknown> = { task_id: row.taskId, document_id: row.documentId };
  for (const [stage, ms] of Object.entries(row.inherited ?? {}) as [Stage, number | null][]) {
    const cols = stageColumns(stage);
    values[cols.status] = 'SUCCESS';
    values[cols.ms] = ms;
  }
  return db.insertInto('pipelines').values(values as never).returningAll().executeTakeFirstOrThrow();
}

// A run may (re)enter a stage that is new, was interrupted mid-way, or failed under a Web UI
// reset of this same task; never one that succeeded, and never on a superseded task.
const ENTERABLE = ['PENDING', 'PROCESSING', 'FAILED'] as const;

/**
 * The guarded start as one statement that both checks and claims the stage: true when it
 * started, false when the row refused (stage SUCCESS, task superseded, or no such task).
 */
export async function tryStartStage(db: Kysely<Database>, taskId: string, stage: Stage): Promise<boolean> {
  const cols = stageColumns(stage);
  const now = new Date();
  const set = {
    [cols.status]: 'PROCESSING',
    // An activity retried after a crash keeps its first start, so the duration is honest.
    [cols.startedAt]: sql`case when ${sql.ref(cols.status)} = 'PROCESSING' then coalesce(${sql.ref(cols.startedAt)}, now()) else now() end`,
    [cols.ms]: null,
    pipeline_status: 'PROCESSING',
    started_at: sql`coalesce(started_at, now())`,
    finished_at: null,
    failed_stage: null,
    failure_code: null,
    failure_reason: null,
    recover_from_stage: null,
    updated_at: now,
  } as unknown as PipelineUpdate;
  const result = await db
    .updateTable('pipelines')
    .set(set)
    .where('task_id', '=', taskId)
    .where(cols.status, 'in', ENTERABLE)
    .where('superseded_by_task_id', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

const elapsedMs = (startedAtColumn: string) =>
  sql<number>`greatest(0, round(extract(epoch from (now() - ${sql.ref(startedAtColumn)})) * 1000))::int`;

/** SUCCESS only from PROCESSING; the last stage's success is the only way the pipeline succeeds. */
export async function markStageSucceeded(db: Kysely<Database>, taskId: string, stage: Stage): Promise<void> {
  const cols = stageColumns(stage);
  const isLast = stage === STAGES[STAGES.length - 1];
  const set = {
    [cols.status]: 'SUCCESS',
    [cols.ms]: elapsedMs(cols.startedAt),
    updated_at: new Date(),
    ...(isLast ? { pipeline_status: 'SUCCESS', finished_at: new Date(), recover_from_stage: null } : {}),
  } as unknown as PipelineUpdate;
  const result = await db
    .updateTable('pipelines')
    .set(set)
    .where('task_id', '=', taskId)
    .where(cols.status, '=', 'PROCESSING')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) {
    throw new IllegalTransitionError(`task ${taskId}: ${stage} cannot succeed from a state other than PROCESSING`);
  }
}

/** An inherited final stage still flips the pipeline to SUCCESS (DESIGN.md §3). */
export async function markPipelineSucceeded(db: Kysely<Database>, taskId: string): Promise<void> {
  await db
    .updateTable('pipelines')
    .set({ pipeline_status: 'SUCCESS', finished_at: new Date(), recover_from_stage: null, updated_at: new Date() })
    .where('task_id', '=', taskId)
    .where('sparse_vectorizing_status', '=', 'SUCCESS')
    .where('pipeline_status', '!=', 'SUCCESS')
    .execute();
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
  const row = await trx.selectFrom('pipelines').selectAll().where('task_id', '=', taskId).forUpdate().executeTakeFirst();
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
  const recoverFrom = STAGES.find((stage) => statuses[stage] !== 'SUCCESS') ?? null;
  Object.assign(set, {
    pipeline_status: 'FAILED',
    failed_stage: failure.stage ?? recoverFrom,
    recover_from_stage: recoverFrom,
    failure_code: failure.code,
    failure_reason: formatFailureReason(failure.code, failure.message),
    finished_at: new Date(),
  });
  await trx.updateTable('pipelines').set(set as PipelineUpdate).where('task_id', '=', taskId).execute();
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
