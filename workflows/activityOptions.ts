import {
  ActivityCancellationType,
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
  type LocalActivityOptions,
} from '@temporalio/workflow';
import type { IngestActivities } from '../activities';
import { embeddingTaskQueue, enrichmentTaskQueue } from '../contracts/taskQueues';

// Every proxy takes the summary the Web UI shows for its activities (workflows/activitySummary.ts):
// a proxy is a cheap object, so each call gets its own, naming the stage and the document.

/**
 * The local-activity form of a normal activity's options: the same timeout, retries and
 * cancellation, minus what a local activity does not have (a heartbeat and a task queue). A worker
 * that dies mid-way is noticed when its workflow task times out; the next worker replays to the
 * last recorded step and re-runs it, which every step's Postgres checkpoint makes safe.
 */
function asLocal(options: ActivityOptions): LocalActivityOptions {
  const local: LocalActivityOptions = { startToCloseTimeout: options.startToCloseTimeout, retry: options.retry };
  if (options.cancellationType !== undefined) local.cancellationType = options.cancellationType;
  return local;
}

// Bookkeeping is a few Postgres statements: short timeouts, and enough patient attempts to ride
// out a database restart (1 s doubling to 30 s, 10 attempts ≈ 4 minutes).
const bookkeepingOptions: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
};
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
    ...bookkeepingOptions,
    startToCloseTimeout: '1 hour',
    heartbeatTimeout: HEARTBEAT_TIMEOUT,
    summary,
  });

// Parsing is deterministic, so retrying a bad file cannot help: permanent errors are
// non-retryable anyway, and 3 attempts cover a worker crash or a storage blip. 4 hours is room
// for a long scanned document, which the CPU pool lets run up to SLUICE_OCR_DOCUMENT_TIMEOUT (3
// hours by default; a 300-page scan took 41 minutes of one core): a dead worker is noticed by the
// heartbeat timeout, not by this one.
const cleaningOptions: ActivityOptions = {
  cancellationType: WAIT_FOR_STOP,
  startToCloseTimeout: '4 hours',
  // A dead worker or a lost task costs the heartbeat timeout, not the whole startToCloseTimeout.
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3 },
};
export const cleaningStage = (summary: string) => proxyActivities<IngestActivities>({ ...cleaningOptions, summary });

// CHUNKING and PRETOKENIZE are CPU work over one document plus one transaction.
const cpuOptions: ActivityOptions = {
  cancellationType: WAIT_FOR_STOP,
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
};
export const cpuStage = (summary: string) => proxyActivities<IngestActivities>({ ...cpuOptions, summary });

// Embedding and indexing talk to external services that rate-limit and go down: they heartbeat
// every batch (and every second while a call waits), so a dead worker is noticed within the
// heartbeat timeout and the next attempt resumes from the last heartbeat; 8 attempts backing off
// to 2 minutes ride out a provider outage of ~10 minutes.
const batchOptions: ActivityOptions = {
  cancellationType: WAIT_FOR_STOP,
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 8 },
};
export const batchStage = (summary: string) => proxyActivities<IngestActivities>({ ...batchOptions, summary });

// Retiring a rebuild's old chunk set: deletes by id in every store, a few statements per store.
// 10 minutes covers a document of many thousands of chunks; the batch back-off rides out a store
// outage, and what still fails is the sweep's (activities/maintenance/sweepStuckTasks.ts).
export const retirement = (summary: string) =>
  proxyActivities<IngestActivities>({
    cancellationType: WAIT_FOR_STOP,
    startToCloseTimeout: '10 minutes',
    retry: batchOptions.retry,
    summary,
  });

/**
 * VECTORIZING, with the batch options, on the embedding task queue next to the run's own queue
 * (contracts/taskQueues.ts). Built per run: the queue is only known from workflowInfo().
 */
export function embeddingStage(taskQueue: string, summary: string) {
  return proxyActivities<IngestActivities>({ ...batchOptions, taskQueue: embeddingTaskQueue(taskQueue), summary });
}

/**
 * Chunk enrichment (activities/stages/enrichChunks.ts, the first part of PRETOKENIZE) with the batch
 * options: a chat model rate-limits and goes down like an embedding provider, and each batch is
 * checkpointed, so the same patient retries cost no repeated calls. On its own queue.
 */
export function enrichmentStage(taskQueue: string, summary: string) {
  return proxyActivities<IngestActivities>({ ...batchOptions, taskQueue: enrichmentTaskQueue(taskQueue), summary });
}

// The short stages of a small document (contracts/ingest.ts LocalStagePlan) as local activities.
// A local CLEANING is a small source that no OCR can make long (prepareTask localStagePlan):
// SLUICE_PARSE_TIMEOUT's 10 minutes by default, with room.
export const localCleaningStage = (summary: string) =>
  proxyLocalActivities<IngestActivities>({ ...asLocal(cleaningOptions), startToCloseTimeout: '15 minutes', summary });
export const localCpuStage = (summary: string) =>
  proxyLocalActivities<IngestActivities>({ ...asLocal(cpuOptions), summary });
// At most maxChunks chunks take seconds; a store call that hangs is cut after 5 minutes and retried.
export const localBatchStage = (summary: string) =>
  proxyLocalActivities<IngestActivities>({ ...asLocal(batchOptions), startToCloseTimeout: '5 minutes', summary });
