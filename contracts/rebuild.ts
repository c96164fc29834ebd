import type { ChunkingPlan } from './chunkingPlan';

export const REBUILD_DATASET_WORKFLOW_TYPE = 'rebuildDataset';

/** One dataset rebuild at a time per (user, dataset): its workflow id. */
export function rebuildDatasetWorkflowId(scope: { userId: string; datasetId: string }): string {
  return `rebuild:${JSON.stringify([scope.userId, scope.datasetId])}`;
}

/** A dataset rebuild's input; a continue-as-new carries the cursor and the counts so far. */
export interface RebuildDatasetInput {
  userId: string;
  datasetId: string;
  /** The plan every document is re-chunked with; absent → the deployment's chunker settings. */
  chunkingPlan?: ChunkingPlan;
  /** At most this many of the dataset's document runs open at once (SLUICE_REBUILD_MAX_OPEN). */
  maxOpen: number;
  /** The retry wait each document's run gets (SLUICE_RETRY_WAIT). */
  retryWait: string;
  /** The caller's claim to act for userId (crypto/callerClaim.ts), handed to each document's run. */
  callerClaim?: string;
  /** Documents up to this id are done (they are taken in id order). */
  afterDocumentId?: string;
  /** Counts of earlier runs of this chain. */
  counts?: RebuildCounts;
}

export interface RebuildCounts {
  started: number;
  succeeded: number;
  failed: number;
  /** Not rebuildable (latest task not a success, no stored markdown) or a run already open. */
  skipped: number;
}

/** A document the dataset rebuild may start a run for: its latest task succeeded. */
export interface RebuildCandidate {
  documentId: string;
  lastTaskId: string;
}

/** How a document's rebuild run ended its attempt: SUCCESS, FAILED (waiting for a retry), or CLOSED without a task (refused). */
export type RebuildSettlement = 'SUCCESS' | 'FAILED' | 'CLOSED';
