import type { IngestInput } from '../../contracts/ingest';

/** What the workflow hands the registration and preparation activities. */
export interface PrepareInput extends IngestInput {
  /** The workflow resolves these (from the workflow id and run chain when a source run leaves them out). */
  documentId: string;
  taskId: string;
  retryWait: string;
  /** workflowInfo().firstExecutionRunId: stable across activity retries and Web UI resets. */
  ownerRunChain: string;
}
