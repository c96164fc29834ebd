import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { SluiceConfig } from '../config/config';
import { callerClaimFor } from '../client/startRun';
import { deleteWorkflowId, DELETE_WORKFLOW_TYPE, type DeleteInput } from '../contracts/deletion';
import type { deleteDocument as deleteDocumentWorkflow } from '../workflows/deleteDocument';
import type { copyDocumentFields as copyDocumentFieldsWorkflow } from '../workflows/copyDocumentFields';
import { COPY_FIELDS_WORKFLOW_TYPE, copyFieldsWorkflowId } from '../contracts/documentFieldsCopy';

/** A request does not wait longer than this for the workflow engine to accept a start. */
const START_DEADLINE_MS = 10_000;

/**
 * Starts the durable deletion workflow and returns without waiting for it: the workflow marks the
 * document DELETING, stops its ingestion run and removes vectors, entries, objects and rows.
 */
export async function startDeletion(
  client: Client,
  config: Readonly<SluiceConfig>,
  request: DeleteInput,
): Promise<{ workflowId: string; alreadyRunning: boolean }> {
  const workflowId = deleteWorkflowId(request.documentId);
  try {
    await client.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      client.workflow.start<typeof deleteDocumentWorkflow>(DELETE_WORKFLOW_TYPE, {
        workflowId,
        taskQueue: config.temporal.taskQueue,
        args: [{ ...request, ...callerClaimFor(config, request.userId) }],
      }),
    );
    return { workflowId, alreadyRunning: false };
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    return { workflowId, alreadyRunning: true };
  }
}

/**
 * Starts the copy of a document's changed metadata to the stores that filter on a copy, and
 * returns without waiting: the change is in Postgres already, so Postgres-side filters see it at
 * once and the copies follow within seconds (docs/search.md, "Filters").
 */
export async function startFieldsCopy(
  client: Client,
  config: Readonly<SluiceConfig>,
  documentId: string,
  version: number,
): Promise<{ workflowId: string }> {
  const workflowId = copyFieldsWorkflowId(documentId, version);
  try {
    await client.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      client.workflow.start<typeof copyDocumentFieldsWorkflow>(COPY_FIELDS_WORKFLOW_TYPE, {
        workflowId,
        taskQueue: config.temporal.taskQueue,
        args: [documentId],
      }),
    );
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  return { workflowId };
}
