import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { IngestProgress } from './ingest';

/** Stage statuses and chunk counts of the running task, answered from workflow state. */
export const progressQuery = defineQuery<IngestProgress>('progress');

/** Sent by the document admin to a failed run: continue-as-new as a take-over retry. */
export const retrySignal = defineSignal<[]>('retry');

export interface RetryAccepted {
  /** The task that is taken over. */
  retryOfTaskId: string;
  /** The task id the new run will have. */
  taskId: string;
}

/**
 * The same retry, as an update: its validator answers at once whether the retry is accepted or
 * why not (`RETRY_VALIDATION_FAILED:<reason>`), and only one of many concurrent calls wins.
 */
export const requestRetryUpdate = defineUpdate<RetryAccepted, []>('requestRetry');
