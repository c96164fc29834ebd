import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { IngestProgress } from './ingest';

/** Stage statuses and chunk counts of the running task, answered from workflow state. */
export const progressQuery = defineQuery<IngestProgress>('progress');

/** Sent by the document admin to a failed run: continue-as-new as a take-over retry. */
export const retrySignal = defineSignal<[]>('retry');
