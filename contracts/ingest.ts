import type { FailureCode } from './failureCodes';
import type { PipelineStatus, Stage, StageStatuses } from './stages';

export const INGEST_WORKFLOW_TYPE = 'ingestDocument';

export function ingestWorkflowId(documentId: string): string {
  return `ingest:${documentId}`;
}

/** Everything in workflow input and history is a reference: ids, never document content. */
export interface IngestInput {
  documentId: string;
  userId: string;
  datasetId: string;
  /** The idempotency key of this attempt: a start with a task id already seen is not redone. */
  taskId: string;
  /** Set on a retry run: the failed task this run takes over. */
  retryOfTaskId?: string;
  /** Set on a re-embedding run: the succeeded task whose vectors came from another model. */
  reembedOfTaskId?: string;
  /** How long a failed run waits for `retry` before it closes (Temporal duration string). */
  retryWait: string;
}

/** What every stage activity needs: the rest is loaded from Postgres by reference. */
export interface StageInput {
  taskId: string;
  documentId: string;
  userId: string;
  datasetId: string;
}

export interface StageResult {
  stage: Stage;
  /** True when the stage had already succeeded for this task (a reset or an activity retry). */
  skipped: boolean;
  /** Stage-specific count: chunks written, vectors upserted, entries indexed... */
  items: number;
}

/**
 * Which stages of a run execute as local activities: in the worker that runs the workflow, with
 * no activity task on the server. prepareTask decides it (from config and the source's size) and
 * the decision is in its recorded result, so a replay makes the same choice whatever the config
 * says by then. Absent (runs prepared before this existed) → every stage is a normal activity.
 */
export interface LocalStagePlan {
  /** CLEANING and CHUNKING: the source is small enough to parse in seconds. */
  beforeEmbedding: boolean;
  /** PRETOKENIZE, KEYWORD_INDEXING and SPARSE_VECTORIZING when the document has at most this many chunks (0 → never). */
  maxChunksAfterEmbedding: number;
}

export type PrepareResult =
  | { kind: 'run'; taskId: string; stages: StageStatuses; inherited: Stage[]; chunkCount: number; localStages?: LocalStagePlan }
  | { kind: 'duplicate'; taskId: string; status: PipelineStatus; failureCode: FailureCode | null };

export interface IngestResult {
  documentId: string;
  taskId: string;
  status: PipelineStatus;
  failedStage: Stage | null;
  failureCode: FailureCode | null;
  chunkCount: number;
  /** True when this start was answered from an earlier run of the same task id. */
  duplicate: boolean;
}

export interface IngestProgress {
  documentId: string;
  taskId: string;
  status: PipelineStatus;
  currentStage: Stage | null;
  stages: StageStatuses;
  chunkCount: number;
  failureCode: FailureCode | null;
  waitingForRetry: boolean;
}
