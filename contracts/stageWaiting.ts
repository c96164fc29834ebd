import { defineSignal } from '@temporalio/workflow';
import type { FailureCode } from './failureCodes';

/**
 * What a retryable failure says about the server its activity waits for (the first detail of its
 * ApplicationFailure, activities/toApplicationFailure.ts): the server's name when the error
 * named it, else the port of the socket that failed, which the worker names from its
 * configuration. No address or credential: it is kept in history.
 */
export interface WaitingDetails {
  server: string | null;
  port: number | null;
}

/** A stage's attempt failed and will be retried: sent by the worker to the document's run. */
export interface WaitingReport {
  /** What the run waits for: "Postgres", "the embedding provider". */
  waitingFor: string;
  code: FailureCode;
  /** The attempt that failed; the next one is attempt + 1. */
  attempt: number;
}

export const stageWaitingSignal = defineSignal<[WaitingReport]>('stageWaiting');

/** What a failure code waits for when the error did not name its server. */
const WAITS_FOR: Partial<Record<FailureCode, string>> = {
  VECTORIZING_FAILED: 'the embedding provider',
  LLM_CONFIG_MISSING: 'the model provider',
  PARSE_ENGINE_FAILED: 'the parsing service',
  PARSED_FILE_UPLOAD_FAILED: 'the object store',
  SOURCE_FILE_NOT_FOUND: 'the object store',
  ENSURE_INDEX_FAILED: 'the keyword index',
  KEYWORD_INDEXING_FAILED: 'the keyword index',
  KEYWORD_DELETE_FAILED: 'the keyword index',
  SPARSE_VECTORIZING_FAILED: 'the vector store',
  TEMP_DISK_FULL: 'disk space',
  INTERRUPTED_TASK: 'a worker',
  RESULT_NOTIFY_FAILED: 'the webhook',
};

export function waitingForCode(code: FailureCode): string {
  return WAITS_FOR[code] ?? 'a server';
}
