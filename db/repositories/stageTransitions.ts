import { sql, type Kysely, type QueryCreator } from 'kysely';
import type { ChunkingPlan } from '../../contracts/chunkingPlan';
import { STAGES, type Stage } from '../../contracts/stages';
import type { Database, PipelineUpdate } from '../database';
import { documentTypeUpdate, parsedTaskColumns, type ParsedOutputs } from './parsedOutputs';
import { elapsedMs, IllegalTransitionError } from './pipelines';
import { switchServedIndex } from './servedIndex';
import { stageColumns } from './stageColumns';

/**
 * What a stage reads about its task and document before working, returned by the statement that
 * starts it (a stage never needs a second round trip to learn where its inputs are).
 */
export interface StartedStage {
  markdownObjectKey: string | null;
  tokenPlanObjectKey: string | null;
  fileName: string;
  /** The type detected from the bytes at registration. */
  fileType: string;
  sizeBytes: number;
  sourceObjectKey: string;
  /** The chunk set the task builds (docs/rebuild.md): its stages read and write that generation only. */
  chunkGeneration: number;
  /** The plan a rebuild chunks with; null: the deployment's chunker settings. */
  chunkingPlan: ChunkingPlan | null;
}

/** A stage's outputs that land on its task and document in the same statement as its SUCCESS. */
export interface StageOutputs {
  parsed?: ParsedOutputs;
  tokenPlanObjectKey?: string;
}

// A run may (re)enter a stage that is new, was interrupted mid-way, or failed under a Web UI
// reset of this same task; never one that succeeded, and never on a superseded task.
const ENTERABLE = ['PENDING', 'PROCESSING', 'FAILED'] as const;

/**
 * The guarded start as one statement that checks, claims and reads: the stage's inputs when it
 * started, undefined when the row refused (stage SUCCESS, task superseded, or no such task).
 */
export async function tryStartStage(
  db: Kysely<Database>,
  taskId: string,
  stage: Stage,
): Promise<StartedStage | undefined> {
  const cols = stageColumns(stage);
  const status = sql.ref(`pipelines.${cols.status}`);
  const set = {
    [cols.status]: 'PROCESSING',
    // An activity retried after a crash keeps its first start, so the duration is honest.
    [cols.startedAt]: sql`case when ${status} = 'PROCESSING' then coalesce(${sql.ref(`pipelines.${cols.startedAt}`)}, now()) else now() end`,
    [cols.ms]: null,
    pipeline_status: 'PROCESSING',
    started_at: sql`coalesce(pipelines.started_at, now())`,
    finished_at: null,
    failed_stage: null,
    failure_code: null,
    failure_reason: null,
    recover_from_stage: null,
    updated_at: new Date(),
  } as unknown as PipelineUpdate;
  const row = await db
    .updateTable('pipelines')
    .from(['parse_tasks as t', 'documents as d'])
    .set(set)
    .whereRef('t.task_id', '=', 'pipelines.task_id')
    .whereRef('d.id', '=', 'pipelines.document_id')
    .where('pipelines.task_id', '=', taskId)
    .where(`pipelines.${cols.status}`, 'in', ENTERABLE)
    .where('pipelines.superseded_by_task_id', 'is', null)
    .returning([
      't.markdown_object_key',
      't.token_plan_object_key',
      't.chunk_generation',
      't.chunking_plan',
      // A replacement's stages read its new source; every other task the document's own.
      sql<string>`coalesce(t.source_file_name, d.file_name)`.as('file_name'),
      'd.file_type',
      sql<string>`coalesce(t.source_size_bytes, d.size_bytes)`.as('size_bytes'),
      sql<string>`coalesce(t.source_object_key, d.source_object_key)`.as('source_object_key'),
    ])
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    markdownObjectKey: row.markdown_object_key,
    tokenPlanObjectKey: row.token_plan_object_key,
    fileName: row.file_name,
    fileType: row.file_type ?? '',
    sizeBytes: Number(row.size_bytes),
    sourceObjectKey: row.source_object_key,
    chunkGeneration: row.chunk_generation,
    chunkingPlan: row.chunking_plan,
  };
}

/**
 * SUCCESS only from PROCESSING; the last stage's success is the only way the pipeline succeeds.
 * The stage's outputs are written by the same statement, so a task never shows a stage SUCCESS
 * without them, and a stage costs one round trip at its end whatever it records. The last stage's
 * success also makes the task's chunk set the one search serves, in the same transaction
 * (switchServedIndex): a rebuild's new set becomes visible exactly when its pipeline succeeds.
 */
export async function markStageSucceeded(
  db: Kysely<Database>,
  taskId: string,
  stage: Stage,
  outputs: StageOutputs = {},
): Promise<void> {
  if (stage === STAGES[STAGES.length - 1]) {
    await db.transaction().execute(async (trx) => {
      await markStageSucceededIn(trx, taskId, stage, outputs);
      await switchServedIndex(trx, taskId);
    });
    return;
  }
  await markStageSucceededIn(db, taskId, stage, outputs);
}

async function markStageSucceededIn(
  db: Kysely<Database>,
  taskId: string,
  stage: Stage,
  outputs: StageOutputs,
): Promise<void> {
  const cols = stageColumns(stage);
  const isLast = stage === STAGES[STAGES.length - 1];
  const set = {
    [cols.status]: 'SUCCESS',
    [cols.ms]: elapsedMs(cols.startedAt),
    updated_at: new Date(),
    ...(isLast ? { pipeline_status: 'SUCCESS', finished_at: new Date(), recover_from_stage: null } : {}),
  } as unknown as PipelineUpdate;
  const { parsed, tokenPlanObjectKey } = outputs;
  const task = {
    ...(parsed ? parsedTaskColumns(parsed) : {}),
    ...(tokenPlanObjectKey !== undefined ? { token_plan_object_key: tokenPlanObjectKey } : {}),
  };
  let query: QueryCreator<Database> = db;
  if (Object.keys(task).length > 0) {
    query = query.with('task_outputs', (q) => q.updateTable('parse_tasks').set(task).where('task_id', '=', taskId));
  }
  if (parsed) {
    query = query.with('document_outputs', (q) => documentTypeUpdate(q, taskId, parsed.detectedType));
  }
  const result = await query
    .updateTable('pipelines')
    .set(set)
    .where('task_id', '=', taskId)
    .where(cols.status, '=', 'PROCESSING')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) {
    throw new IllegalTransitionError(`task ${taskId}: ${stage} cannot succeed from a state other than PROCESSING`);
  }
}
