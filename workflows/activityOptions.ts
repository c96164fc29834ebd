import {
  ActivityCancellationType,
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
  type LocalActivityOptions,
} from '@temporalio/workflow';
import type { IngestActivities } from '../activities';
import type { TenantPriority } from '../contracts/fairness';
import { DEFAULT_OUTAGE_BUDGET_MS } from '../contracts/outageBudget';
import { embeddingTaskQueue, enrichmentTaskQueue } from '../contracts/taskQueues';

// Every proxy takes the summary the Web UI shows for its activities (workflows/activitySummary.ts):
// a proxy is a cheap object, so each call gets its own, naming the stage and the document.

/**
 * What a run's stages share: the outage budget their retries ride out, and the tenant's priority
 * (its fairness key and weight) that every normal activity carries onto its task queue, so one
 * tenant's backlog on the ingest, embedding or enrichment queue does not hold another's tasks.
 * Local activities run in the worker that holds the workflow task, never on a queue.
 */
export interface RunPolicy {
  budgetMs: number;
  priority?: TenantPriority;
}
const DEFAULT_POLICY: RunPolicy = { budgetMs: DEFAULT_OUTAGE_BUDGET_MS };
const onQueue = (options: ActivityOptions, policy: RunPolicy): ActivityOptions =>
  policy.priority ? { ...options, priority: policy.priority } : options;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Retries bounded by time, not by count: a transient failure (DEPENDENCY_UNAVAILABLE, a rate limit,
 * a timeout, a lost worker) is retried, backing off from 2 s to at most `maximumInterval`, until
 * the outage budget has passed (contracts/outageBudget.ts): the schedule-to-close timeout is the
 * longest attempt plus the budget. Permanent failures are non-retryable and fail at once; an
 * unclassified error stops after MAX_UNCLASSIFIED_ATTEMPTS (activities/toApplicationFailure.ts).
 * A provider's Retry-After replaces the back-off for its attempt (nextRetryDelay).
 */
function patient(startToCloseMs: number, budgetMs: number, maximumInterval = '1 minute'): ActivityOptions {
  return {
    startToCloseTimeout: startToCloseMs,
    scheduleToCloseTimeout: startToCloseMs + budgetMs,
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval },
  };
}

/**
 * The local-activity form of a normal activity's options: the same timeout, retries and
 * cancellation, minus what a local activity does not have (a heartbeat and a task queue). A worker
 * that dies mid-way is noticed when its workflow task times out; the next worker replays to the
 * last recorded step and re-runs it, which every step's Postgres checkpoint makes safe.
 */
function asLocal(options: ActivityOptions): LocalActivityOptions {
  const local: LocalActivityOptions = {
    startToCloseTimeout: options.startToCloseTimeout,
    scheduleToCloseTimeout: options.scheduleToCloseTimeout,
    retry: options.retry,
  };
  if (options.cancellationType !== undefined) local.cancellationType = options.cancellationType;
  return local;
}

// Bookkeeping is a few Postgres statements: short attempts, retried through a database restart or
// failover for the default outage budget (it runs before prepareTask has said the configured one).
const bookkeepingOptions: ActivityOptions = patient(30_000, DEFAULT_OUTAGE_BUDGET_MS, '30 seconds');
export const bookkeeping = (summary: string) => proxyActivities<IngestActivities>({ ...bookkeepingOptions, summary });

// The same bookkeeping, as local activities: they run in the worker that holds the workflow task,
// which saves an activity dispatch and a workflow task per call. Only for the tiny, Postgres-only
// steps (prepareTask); anything that may wait on another service stays a normal activity.
export const localBookkeeping = (summary: string) =>
  proxyLocalActivities<IngestActivities>({ ...asLocal(bookkeepingOptions), summary });

// Result notification goes to a webhook that may be down for a while: back off to 5 minutes,
// 12 attempts (about half an hour); after that the outbox row records RESULT_NOTIFY_FAILED.
export const notification = (summary: string) =>
  proxyActivities<IngestActivities>({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 12 },
    summary,
  });

// The first, quick delivery attempt as a local activity (workflows/ingestDocument.ts notify): one
// attempt bounded by the webhook's own 10 s timeout; a failure falls back to `notification`.
export const localNotification = (summary: string) =>
  proxyLocalActivities<IngestActivities>({ startToCloseTimeout: '15 seconds', retry: { maximumAttempts: 1 }, summary });

/**
 * How long the server waits without a heartbeat before it retries a stage elsewhere: what a
 * SIGKILLed worker costs. Every stage beats every second while it works (activities/heartbeat.ts
 * keepAlive and reportProgress) and the SDK forwards every beat (createWorker.ts
 * maxHeartbeatThrottleInterval of 1 s; the SDK caps it at 80 % of this timeout, 4 s), so the
 * server hears from a live attempt every ~1 s and a live attempt fails only if its beats stop
 * for more than 4 s (timeout minus throttle): the same margin as the former 6 s with a 2 s
 * throttle (the first beat, 2 s into an attempt, activities/heartbeat.ts, has 3 s instead of 4).
 * What could delay a beat that long does not run on the worker's main thread: parsing,
 * chunking, pretokenizing and the local model run in threads (cpuPool/,
 * embedders/localModelThread). A dead worker's stage is retried 4–5 s after the kill, plus the
 * retry's initialInterval (bench/recovery.ts measures it).
 */
const HEARTBEAT_TIMEOUT = '5 seconds';

// Stages wait for a cancelled activity to actually stop before the run closes: a deletion that
// follows must not race an activity still writing vectors or entries for the document.
const WAIT_FOR_STOP = ActivityCancellationType.WAIT_CANCELLATION_COMPLETED;

/**
 * Copying a named source into sluice's store (activities/stages/sourceRegistration.ts): a large S3 object
 * can take minutes, far past a local activity's timeout, so it is a normal activity that
 * heartbeats. A dead worker is noticed within the heartbeat timeout; a copy that is merely slow
 * is left to finish. The bookkeeping retries ride out a database restart.
 */
export const sourceRegistration = (summary: string) =>
  proxyActivities<IngestActivities>({
    ...patient(HOUR, DEFAULT_OUTAGE_BUDGET_MS, '30 seconds'),
    heartbeatTimeout: HEARTBEAT_TIMEOUT,
    summary,
  });

// Parsing is deterministic, so retrying a bad file cannot help: its errors are permanent and fail
// at once; what is retried is a worker crash or a storage outage. 4 hours is room for a long scanned
// document, which the CPU pool lets run up to SLUICE_OCR_DOCUMENT_TIMEOUT (3 hours by default; a
// 300-page scan took 41 minutes of one core): a dead worker is noticed by the heartbeat timeout,
// not by this one.
const cleaningOptions = (budgetMs: number): ActivityOptions => ({
  ...patient(4 * HOUR, budgetMs),
  cancellationType: WAIT_FOR_STOP,
  // A dead worker or a lost task costs the heartbeat timeout, not the whole startToCloseTimeout.
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
});
export const cleaningStage = (summary: string, policy = DEFAULT_POLICY) =>
  proxyActivities<IngestActivities>({ ...onQueue(cleaningOptions(policy.budgetMs), policy), summary });

// CHUNKING and PRETOKENIZE are CPU work over one document plus one transaction.
const cpuOptions = (budgetMs: number): ActivityOptions => ({
  ...patient(10 * MINUTE, budgetMs),
  cancellationType: WAIT_FOR_STOP,
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
});
export const cpuStage = (summary: string, policy = DEFAULT_POLICY) =>
  proxyActivities<IngestActivities>({ ...onQueue(cpuOptions(policy.budgetMs), policy), summary });

// Embedding and indexing talk to external services that rate-limit and go down: they heartbeat
// every batch (and every second while a call waits), so a dead worker is noticed within the
// heartbeat timeout and the next attempt resumes from the last heartbeat.
const batchOptions = (budgetMs: number): ActivityOptions => ({
  ...patient(2 * HOUR, budgetMs),
  cancellationType: WAIT_FOR_STOP,
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
});
export const batchStage = (summary: string, policy = DEFAULT_POLICY) =>
  proxyActivities<IngestActivities>({ ...onQueue(batchOptions(policy.budgetMs), policy), summary });

// Retiring a rebuild's old chunk set: deletes by id in every store, a few statements per store.
// 10 minutes covers a document of many thousands of chunks; the outage budget rides out a store
// outage, and what still fails is the sweep's (activities/maintenance/sweepStuckTasks.ts).
export const retirement = (summary: string) =>
  proxyActivities<IngestActivities>({
    ...patient(10 * MINUTE, DEFAULT_OUTAGE_BUDGET_MS),
    cancellationType: WAIT_FOR_STOP,
    summary,
  });

/**
 * VECTORIZING, with the batch options, on the embedding task queue next to the run's own queue
 * (contracts/taskQueues.ts). Built per run: the queue is only known from workflowInfo().
 */
export function embeddingStage(taskQueue: string, summary: string, policy = DEFAULT_POLICY) {
  return proxyActivities<IngestActivities>({
    ...onQueue(batchOptions(policy.budgetMs), policy),
    taskQueue: embeddingTaskQueue(taskQueue),
    summary,
  });
}

/**
 * Chunk enrichment (activities/stages/enrichChunks.ts, the first part of PRETOKENIZE) with the batch
 * options: a chat model rate-limits and goes down like an embedding provider, and each batch is
 * checkpointed, so the same patient retries cost no repeated calls. On its own queue.
 */
export function enrichmentStage(taskQueue: string, summary: string, policy = DEFAULT_POLICY) {
  return proxyActivities<IngestActivities>({
    ...onQueue(batchOptions(policy.budgetMs), policy),
    taskQueue: enrichmentTaskQueue(taskQueue),
    summary,
  });
}

// The short stages of a small document (contracts/ingest.ts LocalStagePlan) as local activities.
// A local CLEANING is a small source that no OCR can make long (prepareTask localStagePlan):
// SLUICE_PARSE_TIMEOUT's 10 minutes by default, with room.
export const localCleaningStage = (summary: string, { budgetMs } = DEFAULT_POLICY) =>
  proxyLocalActivities<IngestActivities>({
    ...asLocal({ ...cleaningOptions(budgetMs), ...patient(15 * MINUTE, budgetMs) }),
    summary,
  });
export const localCpuStage = (summary: string, { budgetMs } = DEFAULT_POLICY) =>
  proxyLocalActivities<IngestActivities>({ ...asLocal(cpuOptions(budgetMs)), summary });
// At most maxChunks chunks take seconds; a store call that hangs is cut after 5 minutes and retried.
export const localBatchStage = (summary: string, { budgetMs } = DEFAULT_POLICY) =>
  proxyLocalActivities<IngestActivities>({
    ...asLocal({ ...batchOptions(budgetMs), ...patient(5 * MINUTE, budgetMs) }),
    summary,
  });
