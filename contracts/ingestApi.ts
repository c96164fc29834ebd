import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ChunkingChoice, ChunkingPlan, PlannedChunking } from './chunkingPlan';
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

/**
 * The task's chunking plan: what was recommended, what is (or will be) executed, its state, and a
 * preview of its first chunks; null before the plan step has run (or in runs from before it).
 */
export const chunkingPlanQuery = defineQuery<PlannedChunking | null>('chunkingPlan');

/**
 * Confirms the waiting plan, as proposed (`{}`) or with another strategy or parameters.
 * The validator refuses (`PLAN_VALIDATION_FAILED:<reason>`) when no plan waits or the choice is
 * invalid, so a bad choice never reaches the history. Returns the plan that will be executed.
 */
export const confirmPlanUpdate = defineUpdate<ChunkingPlan, [PlanConfirmation]>('confirmPlan');

/** A reviewer's confirmation: a choice over the proposed plan, and who made it (for the record). */
export interface PlanConfirmation extends ChunkingChoice {
  confirmedBy?: string;
}
