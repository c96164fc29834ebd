import {
  allHandlersFinished,
  condition,
  isCancellation,
  makeContinueAsNewFunc,
  patched,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  DEFAULT_RETRY_WAIT,
  documentIdOfWorkflowId,
  type IngestInput,
  type IngestProgress,
  type IngestResult,
  type LocalStagePlan,
  type PrepareResult,
  type StageInput,
  type StageResult,
} from '../contracts/ingest';
import { progressQuery } from '../contracts/ingestApi';
import {
  DatasetIdKey,
  DocumentIdKey,
  FailureCodeKey,
  PipelineStageKey,
  PipelineStatusKey,
} from '../contracts/searchAttributes';
import { allPending, STAGES, type Stage } from '../contracts/stages';
import {
  batchStage,
  bookkeeping,
  cleaningStage,
  cpuStage,
  embeddingStage,
  enrichmentStage,
  localBatchStage,
  localBookkeeping,
  localCleaningStage,
  localCpuStage,
  localNotification,
  notification,
  sourceRegistration,
} from './activityOptions';
import { activitySummary } from './activitySummary';
import { classifyFailure, type ClassifiedFailure } from './classifyFailure';
import { PendingSearchAttributes } from './pendingSearchAttributes';
import { installRetryGate } from './retryGate';

interface StageCall {
  run: (input: StageInput) => Promise<StageResult>;
  local: boolean;
}

/**
 * Each stage's activity, with its Web UI summary ("CLEANING report.pdf"); a stage the plan marks
 * short runs as a local activity.
 */
function stageCall(stage: Stage, plan: LocalStagePlan | undefined, chunkCount: number, subject: string): StageCall {
  const early = plan?.beforeEmbedding === true;
  const late = plan !== undefined && chunkCount <= plan.maxChunksAfterEmbedding;
  const summary = activitySummary(stage, subject);
  switch (stage) {
    case 'CLEANING':
      return { run: (early ? localCleaningStage : cleaningStage)(summary).cleaning, local: early };
    case 'CHUNKING':
      return { run: (early ? localCpuStage : cpuStage)(summary).chunking, local: early };
    case 'VECTORIZING':
      // Always a normal activity: it goes to the embedding task queue and its rate limit.
      return { run: embeddingStage(workflowInfo().taskQueue, summary).vectorizing, local: false };
    case 'PRETOKENIZE':
      return { run: (late ? localCpuStage : cpuStage)(summary).pretokenize, local: late };
    case 'KEYWORD_INDEXING':
      return { run: (late ? localBatchStage : batchStage)(summary).keywordIndexing, local: late };
    case 'SPARSE_VECTORIZING':
      return { run: (late ? localBatchStage : batchStage)(summary).sparseVectorizing, local: late };
  }
}

type Failure = ClassifiedFailure & { stage: Stage | null };

/** The patch id of registering a named source in its own activity ahead of prepareTask. */
const SOURCE_REGISTRATION_ACTIVITY = 'source-registration-activity';

/** The patch id of chunk enrichment by a chat model ahead of PRETOKENIZE (issue 26). */
const CHUNK_ENRICHMENT = 'chunk-enrichment';

/**
 * Worker Versioning (docs/deployment.md). A run is PINNED (worker/deploymentOptions.ts) to the
 * release that started it: a
 * deploy never hands a run in the middle of its stages to other workflow code, so a release may
 * change the stage sequence without patching for the runs in flight, and those runs finish on
 * the version they began on. A FAILED run waits for its retry (SLUICE_RETRY_WAIT, 30 days by
 * default) still pinned, so the old version's workers stay up while such runs exist; but the
 * retry is a continue-as-new, and it starts the new run with AUTO_UPGRADE, that is on the
 * deployment's current version: the retry runs the newest stages (a fix is usually why it is
 * retried), and the old version drains as its failed runs are retried or give up waiting. Not
 * AUTO_UPGRADE for the whole run: that would move a run mid-stage onto new code at every deploy,
 * safe only as far as every change is patched, and the old version could never be told apart
 * from the new in a run's history.
 */
const continueOnCurrentVersion = makeContinueAsNewFunc<typeof ingestDocument>({
  initialVersioningBehavior: 'AUTO_UPGRADE',
});

/**
 * One document = one workflow (id `ingest:<documentId>`). History carries ids and counts only;
 * every stage reads and writes its data by reference. A failed run stays open waiting for a
 * retry, which continues-as-new as a take-over of the failed task.
 */
export async function ingestDocument(input: IngestInput): Promise<IngestResult> {
  // A run started from a named source may leave these out: its workflow id names the document,
  // and its run chain (stable across activity retries and resets) is the task's idempotency key.
  const info = workflowInfo();
  let documentId = input.documentId ?? documentIdOfWorkflowId(info.workflowId) ?? '';
  const taskId = input.taskId ?? info.firstExecutionRunId;
  const retryWait = input.retryWait ?? DEFAULT_RETRY_WAIT;
  const progress: IngestProgress = {
    documentId,
    taskId,
    status: 'PROCESSING',
    currentStage: null,
    stages: allPending(),
    chunkCount: 0,
    failureCode: null,
    waitingForRetry: false,
  };
  setHandler(progressQuery, () => progress);
  const retryGate = installRetryGate(progress);
  // The first search attributes go out with the first normal stage's (PendingSearchAttributes).
  const searchAttributes = new PendingSearchAttributes();
  searchAttributes.set([
    { key: DocumentIdKey, value: documentId },
    { key: DatasetIdKey, value: input.datasetId },
    { key: PipelineStatusKey, value: 'PROCESSING' },
    { key: FailureCodeKey, value: null },
  ]);

  let failure: Failure | null = null;
  let duplicate = false;
  // A source that could not be registered has no task: nothing to notify about.
  let registered = input.source === undefined;
  try {
    const prepareInput = { ...input, documentId, taskId, retryWait, ownerRunChain: info.firstExecutionRunId };
    let prepared: PrepareResult | undefined;
    // A named source is copied by a normal activity that heartbeats (activities/sourceRegistration.ts):
    // runs from before it copied inside prepareTask, which a slow copy outlasted.
    if (input.source !== undefined && patched(SOURCE_REGISTRATION_ACTIVITY)) {
      const registration = await sourceRegistration(
        activitySummary('register source', input.fileName ?? documentId),
      ).registerSource(prepareInput);
      if (registration.kind === 'duplicate') prepared = registration;
    }
    // A local activity: a few Postgres statements, without an activity dispatch and a workflow task.
    prepared ??= await localBookkeeping(activitySummary('prepare task', input.fileName ?? documentId)).prepareTask(
      prepareInput,
    );
    registered = true;
    if (prepared.kind === 'duplicate') {
      duplicate = true;
      progress.status = prepared.status;
      // The same content is another document of the dataset: this run answers with that one.
      if (prepared.documentId !== undefined) documentId = progress.documentId = prepared.documentId;
      else if (prepared.status === 'FAILED')
        failure = {
          code: prepared.failureCode ?? 'INTERNAL_UNKNOWN_ERROR',
          message: 'answered from an earlier run',
          stage: null,
        };
    } else {
      progress.stages = prepared.stages;
      progress.chunkCount = prepared.chunkCount;
      const subject = prepared.fileName ?? input.fileName ?? documentId;
      failure = await runStages(
        { taskId, documentId, userId: input.userId, datasetId: input.datasetId },
        progress,
        searchAttributes,
        prepared.localStages,
        subject,
        prepared.enrichChunks === true,
      );
    }
  } catch (error) {
    if (isCancellation(error)) {
      searchAttributes.flush();
      throw error;
    }
    failure = { ...classifyFailure(error, null), stage: null };
  }

  if (!duplicate) progress.status = failure ? 'FAILED' : 'SUCCESS';
  progress.failureCode = failure?.code ?? null;
  progress.currentStage = null;
  // A refused take-over changed nothing: the failed task stays retryable from the client. An input
  // outside the contract stays outside it however often it is retried.
  const retryable =
    failure !== null && failure.code !== 'RETRY_VALIDATION_FAILED' && failure.code !== 'INVALID_INGEST_INPUT';
  // Retryable from the moment the run is seen FAILED, so an admin reacting at once is not refused.
  if (retryable) retryGate.open();
  searchAttributes.set([
    { key: PipelineStatusKey, value: progress.status },
    { key: FailureCodeKey, value: failure?.code ?? null },
  ]);
  searchAttributes.flush();
  const result: IngestResult = {
    documentId,
    taskId,
    status: progress.status,
    failedStage: failure?.stage ?? null,
    failureCode: failure?.code ?? null,
    chunkCount: progress.chunkCount,
    duplicate,
  };
  if (!duplicate && registered) await notify(result);
  if (!retryable) return result;

  const retry = await retryGate.wait(retryWait);
  if (!retry) return result;
  await condition(allHandlersFinished);
  return continueOnCurrentVersion({
    ...input,
    documentId,
    taskId: retry.taskId,
    retryOfTaskId: retry.retryOfTaskId,
    reembedOfTaskId: undefined,
  });
}

async function runStages(
  stageInput: StageInput,
  progress: IngestProgress,
  searchAttributes: PendingSearchAttributes,
  plan: LocalStagePlan | undefined,
  subject: string,
  enrichChunks: boolean,
): Promise<Failure | null> {
  const lastStage = STAGES[STAGES.length - 1];
  for (const stage of STAGES) {
    // Inherited stages are not run again; the last one still runs so it can flip the pipeline.
    if (progress.stages[stage] === 'SUCCESS' && stage !== lastStage) continue;
    progress.currentStage = stage;
    progress.stages[stage] = 'PROCESSING';
    searchAttributes.set([{ key: PipelineStageKey, value: stage }]);
    const call = stageCall(stage, plan, progress.chunkCount, subject);
    // A local stage does not end the workflow task, so the server would not see its stage before
    // the next one anyway: it is written with the next normal stage's, or with the run's end.
    if (!call.local) searchAttributes.flush();
    try {
      // Part of PRETOKENIZE: its failure is the stage's. Only runs prepared asking for it reach patched().
      if (stage === 'PRETOKENIZE' && enrichChunks && patched(CHUNK_ENRICHMENT))
        await enrichmentStage(workflowInfo().taskQueue, activitySummary('enrich chunks', subject)).enrichChunks(
          stageInput,
        );
      const result = await call.run(stageInput);
      progress.stages[stage] = 'SUCCESS';
      if (stage === 'CHUNKING') progress.chunkCount = result.items;
    } catch (error) {
      if (isCancellation(error)) throw error;
      const failure = { ...classifyFailure(error, stage), stage };
      progress.stages[stage] = 'FAILED';
      await bookkeeping(activitySummary(`record ${stage} failure`, failure.code)).recordTaskFailure({
        taskId: stageInput.taskId,
        stage,
        code: failure.code,
        message: failure.message,
      });
      return failure;
    }
  }
  return null;
}

/** Notification never changes the pipeline's status: a delivery that finally fails is recorded on the outbox row. */
async function notify(result: IngestResult): Promise<void> {
  // One quick try inside the workflow task: when the receiver answers (the common case) the run
  // ends in that task, with no activity and no further workflow task.
  try {
    await localNotification(activitySummary('notify', result.status)).notifyResult(result);
    return;
  } catch (error) {
    if (isCancellation(error)) throw error;
  }
  try {
    // A receiver that is down gets the patient schedule of a normal activity.
    await notification(activitySummary('notify', result.status)).notifyResult(result);
  } catch (error) {
    if (isCancellation(error)) throw error;
    await bookkeeping('record notify failure').recordNotifyFailure({
      taskId: result.taskId,
      message: classifyFailure(error, null).message,
    });
  }
}
