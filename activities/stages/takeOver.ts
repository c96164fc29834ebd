import type { Transaction } from 'kysely';
import type { PrepareResult } from '../../contracts/ingest';
import { permanentError } from '../../contracts/sluiceError';
import { STAGES, type Stage } from '../../contracts/stages';
import type { ChunkingPlan } from '../../contracts/chunkingPlan';
import type { Database, ParseTaskRow, PipelineRow } from '../../db/database';
import { objectKeys } from '../../stores/objectKeys';
import { nextGeneration } from '../../db/repositories/chunkGenerations';
import { countChunks, resetChunkStatus } from '../../db/repositories/chunks';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { findPipeline, markTaskFailedIn, stageStatusesOf, supersedePipeline } from '../../db/repositories/pipelines';
import { stageColumns } from '../../db/repositories/stageColumns';
import { getTask } from '../../db/repositories/tasks';
import type { PrepareInput } from './prepareInput';

/**
 * What is taken over: a failed task (retry), a succeeded one whose vectors must be redone
 * (reembed) or whose chunks are rebuilt from its markdown under a new plan (rebuild), or the
 * document's latest finished task when its content is replaced by a new source (replace).
 */
export interface TakeOver {
  oldTaskId: string;
  kind: 'retry' | 'reembed' | 'rebuild' | 'replace';
}

/** A replacement's source, as parse_tasks holds it; null for a task that reads the document's own. */
interface TaskSource {
  sourceObjectKey: string | null;
  sourceSha256: string | null;
  sourceSizeBytes: number | null;
  sourceFileName: string | null;
}

// A re-embedding keeps the parse, the chunks and the keyword entries; only vectors are redone.
const KEPT_BY_REEMBED: readonly Stage[] = ['CLEANING', 'CHUNKING', 'PRETOKENIZE', 'KEYWORD_INDEXING'];
// A rebuild keeps the parse only: the source is never read again.
const KEPT_BY_REBUILD: readonly Stage[] = ['CLEANING'];

function kept(kind: TakeOver['kind'], stage: Stage): boolean {
  if (kind === 'retry') return true;
  // A new source is parsed from the start; its chunks reuse the vectors of unchanged texts.
  if (kind === 'replace') return false;
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
  const mayInterrupt = takeover.kind === 'retry' || takeover.kind === 'replace';
  if (mayInterrupt && (old.pipeline_status === 'PENDING' || old.pipeline_status === 'PROCESSING')) {
    // This run holds the document's workflow id, so the run that left the task unfinished is gone.
    await markTaskFailedIn(trx, oldTaskId, {
      stage: null,
      code: 'INTERRUPTED_TASK',
      message: 'the run that owned this task ended without finishing it',
    });
    return takeOver(trx, input, takeover, lastTaskId);
  }
  const expected = expectedStatus(takeover.kind, old);
  if (old.pipeline_status !== expected) throw refuse(`task ${oldTaskId} is ${old.pipeline_status}, not ${expected}`);
  if (!(await supersedePipeline(trx, oldTaskId, input.taskId, expected)))
    throw refuse(`task ${oldTaskId} was already taken over`);

  const oldStatuses = stageStatusesOf(old);
  const inherited = STAGES.filter((s) => oldStatuses[s] === 'SUCCESS' && kept(takeover.kind, s));
  const oldTask = await getTask(trx, oldTaskId);
  if (takeover.kind === 'rebuild' && (!inherited.includes('CLEANING') || !oldTask.markdown_object_key))
    throw refuse(`task ${oldTaskId} has no stored markdown to rebuild from`);
  const newSet = takeover.kind === 'rebuild' || takeover.kind === 'replace';
  const chunkGeneration = newSet ? await nextGeneration(trx, input.documentId) : oldTask.chunk_generation;
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
    chunkingPlan: chunkingPlanOf(takeover.kind, input, oldTask.chunking_plan),
    inherited: durations,
    ...taskSourceOf(takeover.kind, input, oldTask),
  });
  return runResult(trx, input, { pipeline, chunkGeneration }, inherited);
}

/** A retry takes over a FAILED task and a re-embed or rebuild a SUCCESS one; a replace either. */
function expectedStatus(kind: TakeOver['kind'], old: PipelineRow): 'FAILED' | 'SUCCESS' {
  if (kind === 'replace') return old.pipeline_status === 'FAILED' ? 'FAILED' : 'SUCCESS';
  return kind === 'retry' ? 'FAILED' : 'SUCCESS';
}

function chunkingPlanOf(
  kind: TakeOver['kind'],
  input: PrepareInput,
  oldPlan: ChunkingPlan | null,
): ChunkingPlan | null {
  if (kind === 'rebuild') return input.chunkingPlan ?? null;
  // New content is chunked as the document's first content was: its own choice, or the dataset's.
  return kind === 'replace' ? null : oldPlan;
}

/**
 * The source the task's CLEANING reads: a replace's new one (stored at the key its task id names,
 * objectKeys.version), a retry's that of the task it retries, else the document's own.
 */
function taskSourceOf(kind: TakeOver['kind'], input: PrepareInput, oldTask: ParseTaskRow): TaskSource {
  if (kind === 'replace' && input.replacement) {
    return {
      sourceObjectKey: objectKeys.version(input.userId, input.documentId, input.taskId),
      sourceSha256: input.replacement.sha256,
      sourceSizeBytes: input.replacement.sizeBytes,
      sourceFileName: input.replacement.fileName,
    };
  }
  if (kind !== 'retry')
    return { sourceObjectKey: null, sourceSha256: null, sourceSizeBytes: null, sourceFileName: null };
  return {
    sourceObjectKey: oldTask.source_object_key,
    sourceSha256: oldTask.source_sha256,
    sourceSizeBytes: oldTask.source_size_bytes === null ? null : Number(oldTask.source_size_bytes),
    sourceFileName: oldTask.source_file_name,
  };
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
