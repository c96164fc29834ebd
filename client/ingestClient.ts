import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { SluiceConfig } from '../config/config';
import { ingestWorkflowId, INGEST_WORKFLOW_TYPE, type IngestInput, type IngestProgress, type IngestResult } from '../contracts/ingest';
import { progressQuery } from '../contracts/ingestApi';
import { DatasetIdKey, DocumentIdKey, PipelineStatusKey } from '../contracts/searchAttributes';
import type { ingestDocument } from '../workflows/ingestDocument';

export async function connectClient(config: Readonly<SluiceConfig>): Promise<Client> {
  const connection = await Connection.connect({ address: config.temporal.address });
  return new Client({ connection, namespace: config.temporal.namespace });
}

export interface StartIngestionInput {
  documentId: string;
  userId: string;
  datasetId: string;
  /** Supply one to make the start idempotent across client retries; a fresh one otherwise. */
  taskId?: string;
}

/**
 * Starts `ingestDocument` for a registered document. A start while a run for the document is
 * already open returns that run's handle instead of failing: one run per document at a time.
 */
export async function startIngestion(
  client: Client,
  config: Readonly<SluiceConfig>,
  input: StartIngestionInput,
): Promise<{ handle: WorkflowHandle<typeof ingestDocument>; taskId: string; alreadyRunning: boolean }> {
  const taskId = input.taskId ?? randomUUID();
  const args: IngestInput = { documentId: input.documentId, userId: input.userId, datasetId: input.datasetId, taskId, retryWait: config.retryWait };
  const workflowId = ingestWorkflowId(input.documentId);
  try {
    const handle = await client.workflow.start<typeof ingestDocument>(INGEST_WORKFLOW_TYPE, {
      workflowId,
      taskQueue: config.temporal.taskQueue,
      args: [args],
      typedSearchAttributes: new TypedSearchAttributes([
        { key: DocumentIdKey, value: input.documentId },
        { key: DatasetIdKey, value: input.datasetId },
        { key: PipelineStatusKey, value: 'PENDING' },
      ]),
    });
    return { handle, taskId, alreadyRunning: false };
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    return { handle: client.workflow.getHandle<typeof ingestDocument>(workflowId), taskId, alreadyRunning: true };
  }
}

export async function queryProgress(client: Client, documentId: string): Promise<IngestProgress> {
  return client.workflow.getHandle(ingestWorkflowId(documentId)).query(progressQuery);
}

export async function waitForResult(client: Client, documentId: string): Promise<IngestResult> {
  return client.workflow.getHandle<typeof ingestDocument>(ingestWorkflowId(documentId)).result();
}
