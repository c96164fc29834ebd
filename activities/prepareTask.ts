import type { Transaction } from 'kysely';
import type { LocalStagePlan, PrepareResult } from '../contracts/ingest';
import { permanentError } from '../contracts/sluiceError';
import { STAGES, type Stage } from '../contracts/stages';
import type { Database, DocumentRow, PipelineRow } from '../db/database';
import { countChunks, resetChunkStatus } from '../db/repositories/chunks';
import { lockDocument } from '../db/repositories/documents';
import { insertTaskWithPipeline } from '../db/repositories/newTask';
import {
  findPipeline,
  getPipeline,
  markTaskFailedIn,
  stageStatusesOf,
  supersedePipeline,
} from '../db/repositories/pipelines';
import { stageColumns } from '../db/repositories/stageColumns';
import { findTask, getTask } from '../db/repositories/tasks';
import type { ActivityDeps } from './deps';
import { parserBackendFor } from '../contracts/datasetSettings';
import { findDatasetSettings } from '../db/repositories/datasetSettings';
import type { PrepareInput } from './prepareInput';
import { registerIfSource } from './sourceRegistration';
import { mappingFailures } from './toApplicationFailure';

export type { PrepareInput };

/**
 * The idempotency barrier, in one transaction under a row lock on the document:
 * a task id already seen is answered from its state (never processed twice); a retry takes
 * over the failed task by compare-and-set and inherits its SUCCESS stages; a task left
 * PROCESSING by a run that no longer exists converges to FAILED / INTERRUPTED_TASK.
 */
export function createPrepareTaskActivity(deps: ActivityDeps) {
  return mappingFailures(async function prepareTask(given: PrepareInput): Promise<PrepareResult> {
    const input = await registerIfSource(deps, given);
    if (!('ownerRunChain' in input)) return input;
    const prepared = await deps.db.transaction().execute((trx) => prepareIn(trx, input));
    if (prepared.result.kind !== 'run') return prepared.result;
    const plan = localStagePlan(prepared.sourceBytes, deps.settings.localStages);
    const settings = await findDatasetSettings(deps.db, { userId: input.userId, datasetId: input.datasetId });
    // A parsing service's task is polled for minutes, with heartbeats: never inside a workflow task.
    if (parserBackendFor(settings, prepared.fileType) === 'service') plan.beforeEmbedding = false;
    const enrich = settings.enrichment?.chunkKeywords === true || settings.enrichment?.chunkQuestions === true;
    return {
      ...prepared.result,
      localStages: plan,
      fileName: prepared.fileName,
      ...(enrich ? { enrichChunks: true } : {}),
    };
  });
}

/**
 * Parsing a source of up to `maxSourceBytes` takes seconds, and so do the stages after embedding
 * for up to `maxChunks` chunks: short enough to run inside the workflow task as local activities.
 * Larger documents keep normal activities, which heartbeat and can move to another worker.
 */
export function localStagePlan(
  sourceBytes: number,
  limits: { maxSourceBytes: number; maxChunks: number },
): LocalStagePlan {
  return {
    beforeEmbedding: sourceBytes <= limits.maxSourceBytes && limits.maxSourceBytes > 0,
    maxChunksAfterEmbedding: limits.maxChunks,
  };
}

async function prepareIn(
  trx: Transaction<Database>,
  input: PrepareInput,
): Promise<{ result: PrepareResult; sourceBytes: number; fileName: string; fileType: string }> {
  const locked = await lockDocument(trx, input.documentId);
  // Another user's or dataset's document is answered as one that does not exist: the run cannot
  // touch it, and learns nothing about it.
  const doc = locked?.user_id === input.userId && locked.dataset_id === input.datasetId ? locked : undefined;
  // A retry of a document that is gone is a refused retry, not a new kind of failure.
  if (!doc && input.retryOfTaskId) throw refuseRetry(`document ${input.documentId} does not exist`);
  if (!doc) throw permanentError('DOCUMENT_NOT_FOUND', `document ${input.documentId} does not exist`);
  if (doc.lifecycle === 'DELETING' && input.retryOfTaskId)
    throw refuseRetry(`document ${input.documentId} is being deleted`);
  if (doc.lifecycle === 'DELETING')
    throw permanentError('DOCUMENT_DELETING', `document ${input.documentId} is being deleted`);
  return {
    result: await routeTask(trx, input, doc),
    sourceBytes: Number(doc.size_bytes),
    fileName: doc.file_name,
    fileType: doc.file_type ?? '',
  };
}

async function routeTask(trx: Transaction<Database>, input: PrepareInput, doc: DocumentRow): Promise<PrepareResult> {
  const existing = await findTask(trx, input.taskId);
  if (existing) return answerExistingTask(trx, input, existing.owner_run_chain);

  if (input.retryOfTaskId)
    return takeOver(trx, input, { oldTaskId: input.retryOfTaskId, kind: 'retry' }, doc.last_task_id);
  if (input.reembedOfTaskId)
    return takeOver(trx, input, { oldTaskId: input.reembedOfTaskId, kind: 'reembed' }, doc.last_task_id);

  if (doc.last_task_id) await interruptIfOrphaned(trx, doc.last_task_id);
  const pipeline = await insertTaskWithPipeline(trx, {
    taskId: input.taskId,
    documentId: input.documentId,
    ownerRunChain: input.ownerRunChain,
  });
  const stages = stageStatusesOf(pipeline);
  return { kind: 'run', taskId: input.taskId, stages, inherited: [], chunkCount: 0 };
}

async function answerExistingTask(
  trx: Transaction<Database>,
  input: PrepareInput,
  ownerRunChain: string,
): Promise<PrepareResult> {
  const pipeline = await getPipeline(trx, input.taskId);
  if (ownerRunChain === input.ownerRunChain) {
    // Our own run again (activity retry, or a Web UI reset to before prepareTask): resume.
    const stages = stageStatusesOf(pipeline);
    return runResult(
      trx,
      input,
      pipeline,
      STAGES.filter((s) => stages[s] === 'SUCCESS'),
    );
  }
  if (pipeline.pipeline_status === 'PENDING' || pipeline.pipeline_status === 'PROCESSING') {
    // Workflow ids are unique per document, so the run that owned this task is gone.
    await markTaskFailedIn(trx, input.taskId, {
      stage: null,
      code: 'INTERRUPTED_TASK',
      message: 'the run that owned this task ended without finishing it',
    });
    return { kind: 'duplicate', taskId: input.taskId, status: 'FAILED', failureCode: 'INTERRUPTED_TASK' };
  }
  return {
    kind: 'duplicate',
    taskId: input.taskId,
    status: pipeline.pipeline_status,
    failureCode: pipeline.failure_code,
  };
}

async function interruptIfOrphaned(trx: Transaction<Database>, taskId: string): Promise<void> {
  const previous = await findPipeline(trx, taskId);
  if (previous && (previous.pipeline_status === 'PENDING' || previous.pipeline_status === 'PROCESSING')) {
    await markTaskFailedIn(trx, taskId, {
      stage: null,
      code: 'INTERRUPTED_TASK',
      message: 'a new task started while this one was unfinished',
    });
  }
}

/** What is taken over: a failed task (retry), or a succeeded one whose vectors must be redone. */
interface TakeOver {
  oldTaskId: string;
  kind: 'retry' | 'reembed';
}

// A re-embedding keeps the parse, the chunks and the keyword entries; only vectors are redone.
const KEPT_BY_REEMBED: readonly Stage[] = ['CLEANING', 'CHUNKING', 'PRETOKENIZE', 'KEYWORD_INDEXING'];

async function takeOver(
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
  const inherited = STAGES.filter(
    (s) => oldStatuses[s] === 'SUCCESS' && (takeover.kind === 'retry' || KEPT_BY_REEMBED.includes(s)),
  );
  if (takeover.kind === 'reembed') {
    await resetChunkStatus(trx, input.documentId, 'dense_status');
    await resetChunkStatus(trx, input.documentId, 'sparse_status');
  }
  const durations: Partial<Record<Stage, number | null>> = {};
  for (const stage of inherited) durations[stage] = old[stageColumns(stage).ms];
  const oldTask = await getTask(trx, oldTaskId);
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
    inherited: durations,
  });
  return runResult(trx, input, pipeline, inherited);
}

/** The plan a run follows: its stages' statuses, what it inherited, and the chunks it starts with. */
async function runResult(
  trx: Transaction<Database>,
  input: PrepareInput,
  pipeline: PipelineRow,
  inherited: Stage[],
): Promise<PrepareResult> {
  return {
    kind: 'run',
    taskId: input.taskId,
    stages: stageStatusesOf(pipeline),
    inherited,
    chunkCount: (await countChunks(trx, input.documentId)).active,
  };
}

function refuseRetry(reason: string) {
  return permanentError('RETRY_VALIDATION_FAILED', `RETRY_VALIDATION_FAILED:${reason}`);
}
