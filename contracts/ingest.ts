import type { TenantPriority } from './fairness';
import type { FailureCode } from './failureCodes';
import type { IngestInputShape, IngestProgressShape, IngestResultShape } from './ingestSchema';
import type { PipelineStatus, Stage, StageStatuses } from './stages';
import { UUID } from './uuid';

export const INGEST_WORKFLOW_TYPE = 'ingestDocument';

export function ingestWorkflowId(documentId: string): string {
  return `ingest:${documentId}`;
}

/**
 * The workflow input (schema: contracts/ingestSchema.ts, published in docs/contract/). Everything
 * in it and in history is a reference: ids and an object key, never document content.
 * - A registered document: `documentId`, `userId`, `datasetId`, `taskId`, `retryWait` (sluice's own clients).
 * - A named source (any Temporal SDK): `source`, `fileName`, `userId`, `datasetId`; prepareTask
 *   registers the file as an upload would. `documentId` may come from the workflow id instead.
 */
export type IngestInput = IngestInputShape;

/** The default of SLUICE_RETRY_WAIT, for inputs that leave `retryWait` out. */
export const DEFAULT_RETRY_WAIT = '30d';

export { UUID };

/** The document id a workflow id `ingest:<uuid>` names; null for any other id. Pure: safe in workflow code. */
export function documentIdOfWorkflowId(workflowId: string): string | null {
  const prefix = 'ingest:';
  if (!workflowId.startsWith(prefix)) return null;
  const rest = workflowId.slice(prefix.length);
  return UUID.test(rest) ? rest : null;
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
  /** CLEANING of an EML or MBOX file: the run then starts its attachments' runs (contracts/mailAttachments.ts). */
  mail?: true;
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
  | {
      kind: 'run';
      taskId: string;
      stages: StageStatuses;
      inherited: Stage[];
      chunkCount: number;
      localStages?: LocalStagePlan;
      /**
       * How long each stage rides out transient failures (SLUICE_OUTAGE_BUDGET when the run was
       * prepared). Absent in runs prepared before it existed: DEFAULT_OUTAGE_BUDGET_MS.
       */
      outageBudgetMs?: number;
      /**
       * The tenant's fairness key and weight (SLUICE_FAIRNESS, SLUICE_FAIRNESS_WEIGHTS), which the
       * stages' activities carry on every task queue. Absent with fairness off, and in runs
       * prepared before it existed: the activities then inherit the run's own priority.
       */
      priority?: TenantPriority;
      /** The document's file name, for the activity summaries in the Web UI. Absent in runs prepared before it existed. */
      fileName?: string;
      /**
       * The run builds a chunk set that search does not serve yet (a rebuild, or the retry of one):
       * its success switches the document's index to it, and the run then retires the old set.
       */
      switchesIndex?: boolean;
      /**
       * The dataset asks a chat model for chunk keywords or questions: PRETOKENIZE begins with
       * enrichChunks on the enrichment queue. Absent in runs prepared before it existed.
       */
      enrichChunks?: boolean;
      /**
       * The dataset asks a model for image descriptions or table repair: CLEANING parses with
       * parseForEnrichment and ends with enrichMarkdown on the enrichment queue. Absent in runs
       * prepared before it existed.
       */
      enrichMarkdown?: boolean;
    }
  | {
      kind: 'duplicate';
      taskId: string;
      status: PipelineStatus;
      failureCode: FailureCode | null;
      /** Set when a named source's content is already another document of the dataset: that document. */
      documentId?: string;
    };

export type IngestResult = IngestResultShape;

export type IngestProgress = IngestProgressShape;
