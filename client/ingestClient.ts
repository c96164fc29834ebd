import { randomUUID } from 'node:crypto';
import { type Client, WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import type { SluiceConfig } from '../config/config';
import { ingestWorkflowId, type IngestProgress, type IngestResult } from '../contracts/ingest';
import { progressQuery } from '../contracts/ingestApi';
import type { ingestDocument } from '../workflows/ingestDocument';
import { startIngestRun, type IngestRun } from './startRun';
import { connectTemporalClient } from './temporalConnection';

export async function connectClient(config: Readonly<SluiceConfig>): Promise<Client> {
  return connectTemporalClient(config.temporal);
}

export interface StartIngestionInput {
  documentId: string;
  userId: string;
  datasetId: string;
  /** Supply one to make the start idempotent across client retries; a fresh one otherwise. */
  taskId?: string;
  /** The file's name and size, for the Web UI. */
  file?: IngestRun['file'];
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
  try {
    const handle = await startIngestRun(client, config, { ...input, taskId });
    return { handle, taskId, alreadyRunning: false };
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    return {
      handle: client.workflow.getHandle<typeof ingestDocument>(ingestWorkflowId(input.documentId)),
      taskId,
      alreadyRunning: true,
    };
  }
}

export async function queryProgress(client: Client, documentId: string): Promise<IngestProgress> {
  return client.workflow.getHandle(ingestWorkflowId(documentId)).query(progressQuery);
}

export async function waitForResult(client: Client, documentId: string): Promise<IngestResult> {
  return client.workflow.getHandle<typeof ingestDocument>(ingestWorkflowId(documentId)).result();
}
