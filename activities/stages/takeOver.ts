import type { Transaction } from 'kysely';
import type { PrepareResult } from '../../contracts/ingest';
import { permanentError } from '../../contracts/sluiceError';
import { STAGES, type Stage } from '../../contracts/stages';
import type { Database, PipelineRow } from '../../db/database';
import { nextGeneration } from '../../db/repositories/chunkGenerations';
import { countChunks, resetChunkStatus } from '../../db/repositories/chunks';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { findPipeline, markTaskFailedIn, stageStatusesOf, supersedePipeline } from '../../db/repositories/pipelines';
import { stageColumns } from '../../db/repositories/stageColumns';
import { getTask } from '../../db/repositories/tasks';
import type { PrepareInput } from './prepareInput';

/**
 * What is taken over: a failed task (retry), or a succeeded one whose vectors must be redone
 * (reembed) or whose chunks are rebuilt from its markdown under a new plan (rebuild).
 */
export interface TakeOver {
  oldTaskId: string;
  kind: 'retry' | 'reembed' | 'rebuild';
}

// A re-embedding keeps the parse, the chunks and the keyword entries; only vectors are redone.
const KEPT_BY_REEMBED: readonly Stage[] = ['CLEANING', 'CHUNKING', 'PRETOKENIZE', 'KEYWORD_INDEXING'];
// A rebuild keeps the parse only: the source is never read again.
const KEPT_BY_REBUILD: readonly Stage[] = ['CLEANING'];

function kept(kind: TakeOver['kind'], stage: Stage): boolean {
  if (kind === 'retry') return true;
  return (kind === 'reembed' ? KEPT_BY_REEMBED : KEPT_BY_REBUILD).includes(stage);
}

/**
 * The take-over as a compare-and-set on the old task's superseded_by_task_id, inside prepareTask's
 * transaction under the document's row lock. A rebuild stages a new chunk generation (docs/rebuild.md);
 * a retry continues the generation and plan of the task it retries; a re-embed works on the set
 * the old task built.
 */
export async function takeOver(
  trx: Transaction<Database>,
  input: PrepareInput,
  takeover: TakeOver,
  lastTaskId: string | null,
): Promise<PrepareResult> {
  const refuse = refuseRetry;
  const { oldTaskId } = takeover;
  if (lastTaskId !== oldTaskId) throw refuse(`task ${oldTaskId} is not the document's latest task`);
  const old = await findPipeline(trx, oldTaskId);
  if (!old || old.document_id !== input.documentId)
    throw refuse(`task ${oldTaskId} does not belong to document ${input.documentId}`);
  if (takeover.kind === 'retry' && (old.pipeline_status === 'PENDING' || old.pipeline_status === 'PROCESSING')) {
    // This run holds the document's workflow id, so the run that left the task unfinished is gone.
    await markTaskFailedIn(trx, oldTaskId, {
      stage: null,
      code: 'INTERRUPTED_TASK',
      message: 'the run that owned this task ended without finishing it',
    });
    return takeOver(trx, input, takeover, lastTaskId);
  }
  const expected = takeover.kind === 'retry' ? 'FAILED' : 'SUCCESS';
  if (old.pipeline_status !== expected) throw refuse(`task ${oldTaskId} is ${old.pipeline_status}, not ${expected}`);
  if (!(await supersedePipeline(trx, oldTaskId, input.taskId, expected)))
    throw refuse(`task ${oldTaskId} was already taken over`);

  const oldStatuses = stageStatusesOf(old);
  const inherited = STAGES.filter((s) => oldStatuses[s] === 'SUCCESS' && kept(takeover.kind, s));
  const oldTask = await getTask(trx, oldTaskId);
  if (takeover.kind === 'rebuild' && (!inherited.includes('CLEANING') || !oldTask.markdown_object_key))
    throw refuse(`task ${oldTaskId} has no stored markdown to rebuild from`);
  const chunkGeneration =
    takeover.kind === 'rebuild' ? await nextGeneration(trx, input.documentId) : oldTask.chunk_generation;
  const set = { documentId: input.documentId, generation: chunkGeneration };
  if (takeover.kind === 'reembed') {
    await resetChunkStatus(trx, set, 'dense_status');
    await resetChunkStatus(trx, set, 'sparse_status');
  }
  const durations: Partial<Record<Stage, number | null>> = {};
  for (const stage of inherited) durations[stage] = old[stageColumns(stage).ms];
  const cleaned = inherited.includes('CLEANING');
  const pipeline = await insertTaskWithPipeline(trx, {
    taskId: input.taskId,
    documentId: input.documentId,
    ownerRunChain: input.ownerRunChain,
    retryOfTaskId: oldTaskId,
    detectedType: cleaned ? oldTask.detected_type : null,
    markdownObjectKey: cleaned ? oldTask.markdown_object_key : null,
    tokenPlanObjectKey: inherited.includes('PRETOKENIZE') ? oldTask.token_plan_object_key : null,
    parseMs: cleaned ? oldTask.parse_ms : null,
    ocrPages: cleaned ? oldTask.ocr_pages : null,
    chunkGeneration,
    chunkingPlan: takeover.kind === 'rebuild' ? (input.chunkingPlan ?? null) : oldTask.chunking_plan,
    inherited: durations,
  });
  return runResult(trx, input, { pipeline, chunkGeneration }, inherited);
}

/**
 * The plan a run follows: its stages' statuses, what it inherited, and the chunks it starts with
 * (of the set it builds). `switchesIndex` when that set is not the one search serves: the run ends
 * by retiring the old set (workflows/ingestDocument.ts).
 */
export async function runResult(
  trx: Transaction<Database>,
  input: PrepareInput,
  task: { pipeline: PipelineRow; chunkGeneration: number },
  inherited: Stage[],
): Promise<PrepareResult> {
  const doc = await trx
    .selectFrom('documents')
    .select('index_generation')
    .where('id', '=', input.documentId)
    .executeTakeFirstOrThrow();
  return {
    kind: 'run',
    taskId: input.taskId,
    stages: stageStatusesOf(task.pipeline),
    inherited,
    chunkCount: (await countChunks(trx, input.documentId, task.chunkGeneration)).active,
    ...(task.chunkGeneration !== doc.index_generation ? { switchesIndex: true } : {}),
  };
}

export function refuseRetry(reason: string) {
  return permanentError('RETRY_VALIDATION_FAILED', `RETRY_VALIDATION_FAILED:${reason}`);
}
