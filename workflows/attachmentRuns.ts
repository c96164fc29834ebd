import {
  ChildWorkflowCancellationType,
  isCancellation,
  ParentClosePolicy,
  startChild,
  type ChildWorkflowHandle,
  type Workflow,
} from '@temporalio/workflow';
import { deleteWorkflowId, DELETE_WORKFLOW_TYPE, type DeleteInput } from '../contracts/deletion';
import { ingestWorkflowId, INGEST_WORKFLOW_TYPE, type IngestInput, type StageInput } from '../contracts/ingest';
import { DatasetIdKey, DocumentIdKey, PipelineStatusKey } from '../contracts/searchAttributes';
import { bookkeeping } from './activityOptions';
import { activitySummary } from './activitySummary';

/** What the message's run hands on to its attachments' runs and deletions. */
export interface MessageRun {
  retryWait: string;
  callerClaim?: string;
}

/**
 * After a mail file's CLEANING (docs/documents.md, "Mail"): each attachment it registered is
 * ingested by its own abandoned `ingest:<documentId>` child, and each attachment of an earlier
 * version of the message that the new one no longer has is deleted by an abandoned
 * `delete:<documentId>` child. Neither waits for them: an attachment's run never holds up or fails
 * its message, and nothing here does either (a failure to start is left, the attachment's row
 * stays and is deleted with its message).
 */
export async function startAttachmentRuns(stageInput: StageInput, message: MessageRun, subject: string): Promise<void> {
  try {
    const runs = await bookkeeping(activitySummary('attachments of', subject)).attachmentRuns(stageInput);
    for (const documentId of runs.start) await startIngestion(stageInput, message, documentId);
    for (const documentId of runs.stale) await startDeletion(stageInput, message, documentId);
  } catch (error) {
    if (isCancellation(error)) throw error;
  }
}

async function startIngestion(stageInput: StageInput, message: MessageRun, documentId: string): Promise<void> {
  const args: IngestInput = {
    documentId,
    userId: stageInput.userId,
    datasetId: stageInput.datasetId,
    retryWait: message.retryWait,
    ...(message.callerClaim !== undefined ? { callerClaim: message.callerClaim } : {}),
  };
  // Named by type, not by the workflow function: ingestDocument imports this file.
  await startOnce(() =>
    startChild(INGEST_WORKFLOW_TYPE, {
      workflowId: ingestWorkflowId(documentId),
      args: [args],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
      typedSearchAttributes: [
        { key: DocumentIdKey, value: documentId },
        { key: DatasetIdKey, value: stageInput.datasetId },
        { key: PipelineStatusKey, value: 'PENDING' },
      ],
      staticSummary: `ingest an attachment of ${stageInput.documentId}`,
    }),
  );
}

/**
 * The deletion of an attachment, an abandoned child of the message's run or of its deletion (which
 * waits for it on the handle); null when a deletion of it is already running.
 */
export function startDeletion(
  owner: { userId: string; datasetId: string },
  message: { callerClaim?: string },
  documentId: string,
): Promise<ChildWorkflowHandle<Workflow> | null> {
  const args: DeleteInput = {
    documentId,
    userId: owner.userId,
    datasetId: owner.datasetId,
    ...(message.callerClaim !== undefined ? { callerClaim: message.callerClaim } : {}),
  };
  return startOnce(() =>
    startChild(DELETE_WORKFLOW_TYPE, {
      workflowId: deleteWorkflowId(documentId),
      args: [args],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
      typedSearchAttributes: [{ key: DocumentIdKey, value: documentId }],
      staticSummary: `delete an attachment its message no longer has`,
    }),
  );
}

/** Starts a child; null when a run of that id is open already (a replayed or retried step). */
async function startOnce<T>(start: () => Promise<T>): Promise<T | null> {
  try {
    return await start();
  } catch (error) {
    // (The error class lives in @temporalio/common, which workflow code does not import: its name.)
    if (error instanceof Error && error.name === 'WorkflowExecutionAlreadyStartedError') return null;
    throw error;
  }
}
