import {
  allHandlersFinished,
  condition,
  isCancellation,
  makeContinueAsNewFunc,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  DEFAULT_RETRY_WAIT,
  documentIdOfWorkflowId,
  type IngestInput,
  type IngestProgress,
  type IngestResult,
  type PrepareResult,
  type StageInput,
} from '../contracts/ingest';
import { DEFAULT_OUTAGE_BUDGET_MS } from '../contracts/outageBudget';
import { progressQuery } from '../contracts/ingestApi';
import { DatasetIdKey, DocumentIdKey, FailureCodeKey, PipelineStatusKey } from '../contracts/searchAttributes';
import { allPending } from '../contracts/stages';
import {
  bookkeeping,
  localBookkeeping,
  localNotification,
  notification,
  retirement,
  sourceRegistration,
} from './activityOptions';
import { activitySummary } from './activitySummary';
import { startAttachmentRuns } from './attachmentRuns';
import { classifyFailure } from './classifyFailure';
import { PendingSearchAttributes } from './pendingSearchAttributes';
import { runStages, type Failure } from './runStages';
import { installWaitingState } from './waitingState';
import { installPlanGate } from './planGate';
import { installRetryGate } from './retryGate';
import { declareVersioningBehavior } from './versioningBehavior';

/*
 * No `patched()` gates here: a run is pinned to the release that started it (below), so no run
 * meets changed workflow code mid-way. And a `patched()` called after a local activity resolves
 * is not safe: its marker goes into the workflow task in which the code ran, and a query arriving
 * while that task is open can end it before the activity's result is handed to the code, which
 * then runs in the next task. A replay resolves the activity in the first task, does not find the
 * marker there, takes the unpatched path and fails with a nondeterminism error (seen under CI
 * load: every later query of that run failed).
 */

/**
 * Worker Versioning (docs/deployment.md): a run is PINNED (declared below the workflow) to the
 * release that started it. A deploy never hands a run in the middle of its stages to other
 * workflow code, so a release may change the stage sequence without patching for the runs in
 * flight, and those runs finish on the version they began on. A FAILED run waits days for its
 * retry (SLUICE_RETRY_WAIT, 30 days by default) still pinned, so the old version's workers stay
 * up while such runs exist; but the retry is a continue-as-new, and it starts the new run with
 * AUTO_UPGRADE, that is on the deployment's current version, where the new run is PINNED again:
 * the retry runs the newest stages (a fix is usually why it is retried), and the old version
 * drains as its failed runs are retried or give up waiting. Not AUTO_UPGRADE for the whole run:
 * that would move a run mid-stage onto new code at every deploy, safe only as far as every change
 * is patched, and the old version could never be told apart from the new in a run's history. Not
 * a continue-as-new that stays PINNED: the retry would rerun the code that failed, and the old
 * version could never be retired while a document might still be retried.
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
    waiting: null,
  };
  setHandler(progressQuery, () => progress);
  const retryGate = installRetryGate(progress);
  const planGate = installPlanGate();
  // The first search attributes go out with the first normal stage's (PendingSearchAttributes).
  const searchAttributes = new PendingSearchAttributes();
  const waiting = installWaitingState(progress, searchAttributes);
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
    // A named source is copied by a normal activity that heartbeats (activities/stages/sourceRegistration.ts).
    if (input.source !== undefined) {
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
    waiting.clear();
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
      const stageInput = { taskId, documentId, userId: input.userId, datasetId: input.datasetId };
      failure = await runStages(
        stageInput,
        progress,
        searchAttributes,
        waiting,
        prepared.localStages,
        subject,
        planGate,
        { chunks: prepared.enrichChunks === true, markdown: prepared.enrichMarkdown === true },
        {
          budgetMs: prepared.outageBudgetMs ?? DEFAULT_OUTAGE_BUDGET_MS,
          ...(prepared.priority ? { priority: prepared.priority } : {}),
        },
        () =>
          startAttachmentRuns(
            stageInput,
            { retryWait, ...(input.callerClaim !== undefined ? { callerClaim: input.callerClaim } : {}) },
            subject,
          ),
      );
      // Only a run that built a new chunk set (a rebuild) retires the set it switched away from.
      if (failure === null && prepared.switchesIndex === true) await retireOldChunkSet(stageInput, subject);
    }
  } catch (error) {
    if (isCancellation(error)) {
      searchAttributes.flush();
      throw error;
    }
    failure = { ...classifyFailure(error, null), stage: null };
  }

  waiting.clear();
  if (!duplicate) progress.status = failure ? 'FAILED' : 'SUCCESS';
  progress.failureCode = failure?.code ?? null;
  progress.currentStage = null;
  // A refused take-over changed nothing: the failed task stays retryable from the client. An input
  // outside the contract stays outside it however often it is retried, and so does a task id of
  // another document, which this run must neither retry nor notify about (the task is not its own).
  // A run refused its caller claim is not the caller's either: nothing was changed or is told.
  const foreignTask = failure?.code === 'ID_MISMATCH' || failure?.code === 'CALLER_CLAIM_INVALID';
  const retryable =
    failure !== null &&
    failure.code !== 'RETRY_VALIDATION_FAILED' &&
    failure.code !== 'INVALID_INGEST_INPUT' &&
    !foreignTask;
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
  if (!duplicate && registered && !foreignTask) await notify(result);
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
    rebuildOfTaskId: undefined,
    replaceOfTaskId: undefined,
    replacement: undefined,
    chunkingPlan: undefined,
  });
}
declareVersioningBehavior('PINNED', ingestDocument);

/**
 * After a rebuild's success switched search to its new chunk set (in the transaction of the last
 * stage's SUCCESS), the old set is removed from every store. The run has succeeded either way: a
 * clean-up that still fails after its retries is left to the stuck-task sweep, which retires any
 * set below the served one (activities/maintenance/sweepStuckTasks.ts).
 */
async function retireOldChunkSet(stageInput: StageInput, subject: string): Promise<void> {
  try {
    await retirement(activitySummary('retire old chunk set', subject)).retireChunkSets(stageInput);
  } catch (error) {
    if (isCancellation(error)) throw error;
  }
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
