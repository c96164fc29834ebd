import {
  condition,
  continueAsNew,
  isCancellation,
  setHandler,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { IngestInput, IngestProgress, IngestResult, StageInput, StageResult } from '../contracts/ingest';
import { progressQuery, retrySignal } from '../contracts/ingestApi';
import { PipelineStageKey, PipelineStatusKey, FailureCodeKey, DocumentIdKey, DatasetIdKey } from '../contracts/searchAttributes';
import { allPending, STAGES, type Stage } from '../contracts/stages';
import { batchStage, bookkeeping, cleaningStage, cpuStage } from './activityOptions';
import { classifyFailure, type ClassifiedFailure } from './classifyFailure';

const runStageActivity: Record<Stage, (input: StageInput) => Promise<StageResult>> = {
  CLEANING: cleaningStage.cleaning,
  CHUNKING: cpuStage.chunking,
  VECTORIZING: batchStage.vectorizing,
  PRETOKENIZE: cpuStage.pretokenize,
  KEYWORD_INDEXING: batchStage.keywordIndexing,
  SPARSE_VECTORIZING: batchStage.sparseVectorizing,
};

/**
 * One document = one workflow (id `ingest:<documentId>`). History carries ids and counts only;
 * every stage reads and writes its data by reference. A failed run stays open waiting for
 * `retry`, which continues-as-new as a take-over of the failed task.
 */
export async function ingestDocument(input: IngestInput): Promise<IngestResult> {
  const progress: IngestProgress = {
    documentId: input.documentId,
    taskId: input.taskId,
    status: 'PROCESSING',
    currentStage: null,
    stages: allPending(),
    chunkCount: 0,
    failureCode: null,
    waitingForRetry: false,
  };
  let retryRequested = false;
  setHandler(progressQuery, () => progress);
  setHandler(retrySignal, () => {
    if (progress.waitingForRetry) retryRequested = true;
  });
  upsertSearchAttributes([
    { key: DocumentIdKey, value: input.documentId },
    { key: DatasetIdKey, value: input.datasetId },
    { key: PipelineStatusKey, value: 'PROCESSING' },
    { key: FailureCodeKey, value: null },
  ]);

  let failure: (ClassifiedFailure & { stage: Stage | null }) | null = null;
  let duplicate = false;
  try {
    const prepared = await bookkeeping.prepareTask({ ...input, ownerRunChain: workflowInfo().firstExecutionRunId });
    if (prepared.kind === 'duplicate') {
      duplicate = true;
      progress.status = prepared.status;
      if (prepared.status === 'FAILED') failure = { code: prepared.failureCode ?? 'INTERNAL_UNKNOWN_ERROR', message: 'answered from an earlier run', stage: null };
    } else {
      progress.stages = prepared.stages;
      progress.chunkCount = prepared.chunkCount;
      failure = await runStages(input, progress);
    }
  } catch (error) {
    if (isCancellation(error)) throw error;
    failure = { ...classifyFailure(error, null), stage: null };
  }

  if (!duplicate) progress.status = failure ? 'FAILED' : 'SUCCESS';
  progress.failureCode = failure?.code ?? null;
  upsertSearchAttributes([
    { key: PipelineStatusKey, value: progress.status },
    { key: FailureCodeKey, value: failure?.code ?? null },
  ]);
  const result: IngestResult = {
    documentId: input.documentId,
    taskId: input.taskId,
    status: progress.status,
    failedStage: failure?.stage ?? null,
    failureCode: failure?.code ?? null,
    chunkCount: progress.chunkCount,
    duplicate,
  };
  if (!duplicate) await bookkeeping.notifyResult(result);
  if (!failure || failure.code === 'RETRY_VALIDATION_FAILED') return result;

  progress.waitingForRetry = true;
  if (await condition(() => retryRequested, input.retryWait)) {
    return continueAsNew<typeof ingestDocument>({ ...input, taskId: uuid4(), retryOfTaskId: input.taskId });
  }
  return result;
}

async function runStages(input: IngestInput, progress: IngestProgress): Promise<(ClassifiedFailure & { stage: Stage }) | null> {
  const stageInput: StageInput = { taskId: input.taskId, documentId: input.documentId, userId: input.userId, datasetId: input.datasetId };
  const lastStage = STAGES[STAGES.length - 1];
  for (const stage of STAGES) {
    // Inherited stages are not run again; the last one still runs so it can flip the pipeline.
    if (progress.stages[stage] === 'SUCCESS' && stage !== lastStage) continue;
    progress.currentStage = stage;
    progress.stages[stage] = 'PROCESSING';
    upsertSearchAttributes([{ key: PipelineStageKey, value: stage }]);
    try {
      const result = await runStageActivity[stage](stageInput);
      progress.stages[stage] = 'SUCCESS';
      if (stage === 'CHUNKING' && !result.skipped) progress.chunkCount = result.items;
    } catch (error) {
      if (isCancellation(error)) throw error;
      const failure = { ...classifyFailure(error, stage), stage };
      progress.stages[stage] = 'FAILED';
      await bookkeeping.recordTaskFailure({ taskId: input.taskId, stage, code: failure.code, message: failure.message });
      return failure;
    }
  }
  progress.currentStage = null;
  return null;
}
