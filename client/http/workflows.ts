import { createHash } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { SluiceConfig } from '../../config/config';
import { deleteWorkflowId, DELETE_WORKFLOW_TYPE } from '../../contracts/deletion';
import type { deleteDocument as deleteDocumentWorkflow } from '../../workflows/deleteDocument';
import { startIngestion } from '../ingestClient';

/** A request does not wait longer than this for the workflow engine to accept a start. */
const START_DEADLINE_MS = 10_000;

/**
 * The task id of a document's first run, derived from the document id. Starting the first run
 * again (a client retry, or an upload of the same content after the API died between storing
 * and starting) reuses it, so the workflow answers the duplicate from its state instead of
 * processing the document twice.
 */
export function firstTaskId(documentId: string): string {
  const hex = createHash('sha256').update(`sluice:first-task:${documentId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function startFirstRun(
  client: Client,
  config: Readonly<SluiceConfig>,
  doc: { documentId: string; userId: string; datasetId: string },
): Promise<string> {
  const taskId = firstTaskId(doc.documentId);
  await client.connection.withDeadline(Date.now() + START_DEADLINE_MS, () => startIngestion(client, config, { ...doc, taskId }));
  return taskId;
}

/**
 * Starts the durable deletion workflow and returns without waiting for it: the workflow marks the
 * document DELETING, stops its ingestion run and removes vectors, entries, objects and rows.
 */
export async function startDeletion(
  client: Client,
  config: Readonly<SluiceConfig>,
  documentId: string,
): Promise<{ workflowId: string; alreadyRunning: boolean }> {
  const workflowId = deleteWorkflowId(documentId);
  try {
    await client.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      client.workflow.start<typeof deleteDocumentWorkflow>(DELETE_WORKFLOW_TYPE, {
        workflowId,
        taskQueue: config.temporal.taskQueue,
        args: [{ documentId }],
      }),
    );
    return { workflowId, alreadyRunning: false };
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    return { workflowId, alreadyRunning: true };
  }
}
