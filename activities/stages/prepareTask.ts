import { tenantPriority } from '../../contracts/fairness';
import { requireCallerClaim } from '../../crypto/callerClaim';
import type { Transaction } from 'kysely';
import type { LocalStagePlan, PrepareResult } from '../../contracts/ingest';
import { permanentError } from '../../contracts/sluiceError';
import { STAGES } from '../../contracts/stages';
import type { Database, DocumentRow } from '../../db/database';
import { lockDocument } from '../../db/repositories/documents';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { findPipeline, getPipeline, markTaskFailedIn, stageStatusesOf } from '../../db/repositories/pipelines';
import { findTask, getTask } from '../../db/repositories/tasks';
import type { ActivityDeps } from '../deps';
import { parserBackendFor } from '../../contracts/datasetSettings';
import { findDatasetSettings } from '../../db/repositories/datasetSettings';
import type { PrepareInput } from './prepareInput';
import { registerIfSource } from './sourceRegistration';
import { refuseRetry, runResult, takeOver } from './takeOver';
import { mappingFailures } from '../toApplicationFailure';

export type { PrepareInput };

/**
 * The idempotency barrier, in one transaction under a row lock on the document:
 * a task id already seen is answered from its state (never processed twice); a retry takes
 * over the failed task by compare-and-set and inherits its SUCCESS stages; a task left
 * PROCESSING by a run that no longer exists converges to FAILED / INTERRUPTED_TASK.
 */
export function createPrepareTaskActivity(deps: ActivityDeps) {
  return mappingFailures(async function prepareTask(given: PrepareInput): Promise<PrepareResult> {
    requireCallerClaim(deps.callerClaims, given.userId, given.callerClaim);
    const input = await registerIfSource(deps, given);
    if (!('ownerRunChain' in input)) return input;
    const prepared = await deps.db.transaction().execute((trx) => prepareIn(trx, input));
    if (prepared.result.kind !== 'run') return prepared.result;
    const plan = localStagePlan(prepared.sourceBytes, deps.settings.localStages, prepared.fileName);
    const settings = await findDatasetSettings(deps.db, { userId: input.userId, datasetId: input.datasetId });
    // A parsing service's task is polled for minutes, with heartbeats: never inside a workflow task.
    if (parserBackendFor(settings, prepared.fileType) === 'service') plan.beforeEmbedding = false;
    const wanted = settings.enrichment;
    const enrichChunks = wanted?.chunkKeywords === true || wanted?.chunkQuestions === true;
    const enrichMarkdown = wanted?.imageDescriptions === true || wanted?.tableRepair === true;
    return {
      ...prepared.result,
      localStages: plan,
      outageBudgetMs: deps.settings.outageBudgetMs,
      ...(deps.settings.fairness.on
        ? { priority: tenantPriority(input.userId, deps.settings.fairness.weights[input.userId]) }
        : {}),
      fileName: prepared.fileName,
      ...(enrichChunks ? { enrichChunks: true } : {}),
      ...(enrichMarkdown ? { enrichMarkdown: true } : {}),
    };
  });
}

/**
 * Parsing a source of up to `maxSourceBytes` takes seconds, and so do the stages after embedding
 * for up to `maxChunks` chunks: short enough to run inside the workflow task as local activities.
 * Larger documents keep normal activities, which heartbeat and can move to another worker. So
 * does a file that may be OCR'd, whatever its size (a PDF, or an image by its name: the type is
 * only detected in CLEANING): OCR takes seconds to minutes a page, and a local activity that long
 * is run again when its workflow task times out on a starved worker (measured: a PNG's CLEANING
 * ran twice at load 30 and the second attempt failed TASK_SUPERSEDED).
 */
export function localStagePlan(
  sourceBytes: number,
  limits: { maxSourceBytes: number; maxChunks: number },
  fileName = '',
): LocalStagePlan {
  return {
    beforeEmbedding: sourceBytes <= limits.maxSourceBytes && limits.maxSourceBytes > 0 && !mayNeedOcr(fileName),
    maxChunksAfterEmbedding: limits.maxChunks,
  };
}

const MAY_NEED_OCR = /\.(pdf|png|jpe?g|tiff?|webp)$/i;

function mayNeedOcr(fileName: string): boolean {
  return MAY_NEED_OCR.test(fileName);
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
  if (!doc && isTakeOver(input)) throw refuseRetry(`document ${input.documentId} does not exist`);
  if (!doc) throw permanentError('DOCUMENT_NOT_FOUND', `document ${input.documentId} does not exist`);
  if (doc.lifecycle === 'DELETING' && isTakeOver(input))
    throw refuseRetry(`document ${input.documentId} is being deleted`);
  if (doc.lifecycle === 'DELETING')
    throw permanentError('DOCUMENT_DELETING', `document ${input.documentId} is being deleted`);
  return {
    result: await routeTask(trx, input, doc),
    // A replacement is parsed from its new source (the document's row keeps the served one's).
    sourceBytes: input.replacement?.sizeBytes ?? Number(doc.size_bytes),
    fileName: input.replacement?.fileName ?? doc.file_name,
    fileType: doc.file_type ?? '',
  };
}

async function routeTask(trx: Transaction<Database>, input: PrepareInput, doc: DocumentRow): Promise<PrepareResult> {
  const existing = await findTask(trx, input.taskId);
  // A task id is only ever answered for its own document: another document's run naming it would
  // otherwise read that task's status, or mark it INTERRUPTED_TASK and block its owner's retry.
  if (existing && existing.document_id !== input.documentId)
    throw permanentError('ID_MISMATCH', `task ${input.taskId} is not a task of document ${input.documentId}`);
  if (existing) return answerExistingTask(trx, input, existing.owner_run_chain);

  if (input.retryOfTaskId)
    return takeOver(trx, input, { oldTaskId: input.retryOfTaskId, kind: 'retry' }, doc.last_task_id);
  if (input.reembedOfTaskId)
    return takeOver(trx, input, { oldTaskId: input.reembedOfTaskId, kind: 'reembed' }, doc.last_task_id);
  if (input.rebuildOfTaskId)
    return takeOver(trx, input, { oldTaskId: input.rebuildOfTaskId, kind: 'rebuild' }, doc.last_task_id);
  if (input.replaceOfTaskId)
    return takeOver(trx, input, { oldTaskId: input.replaceOfTaskId, kind: 'replace' }, doc.last_task_id);

  if (doc.last_task_id) await interruptIfOrphaned(trx, doc.last_task_id);
  const pipeline = await insertTaskWithPipeline(trx, {
    taskId: input.taskId,
    documentId: input.documentId,
    ownerRunChain: input.ownerRunChain,
    chunkGeneration: doc.index_generation,
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
    const task = await getTask(trx, input.taskId);
    return runResult(
      trx,
      input,
      { pipeline, chunkGeneration: task.chunk_generation },
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

/** A retry, re-embed, rebuild or replace: refused as RETRY_VALIDATION_FAILED, changing nothing, when it cannot go ahead. */
function isTakeOver(input: PrepareInput): boolean {
  return Boolean(input.retryOfTaskId ?? input.reembedOfTaskId ?? input.rebuildOfTaskId ?? input.replaceOfTaskId);
}
