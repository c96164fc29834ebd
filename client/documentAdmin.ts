import { randomUUID } from 'node:crypto';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import { deleteWorkflowId, DELETE_WORKFLOW_TYPE, type DeleteResult } from '../contracts/deletion';
import { ingestWorkflowId, INGEST_WORKFLOW_TYPE } from '../contracts/ingest';
import { requestRetryUpdate, retrySignal } from '../contracts/ingestApi';
import type { Database } from '../db/database';
import { findDocument } from '../db/repositories/documents';
import { findPipeline } from '../db/repositories/pipelines';
import type { deleteDocument as deleteDocumentWorkflow } from '../workflows/deleteDocument';
import type { ingestDocument } from '../workflows/ingestDocument';

/** A retry that was refused; `message` is `RETRY_VALIDATION_FAILED:<reason>`. */
export class RetryRefusedError extends Error {
  override readonly name = 'RetryRefusedError';
  readonly code = 'RETRY_VALIDATION_FAILED';
}

const refuse = (reason: string) => new RetryRefusedError(`RETRY_VALIDATION_FAILED:${reason}`);

interface AdminDeps {
  client: Client;
  db: Kysely<Database>;
  config: Readonly<SluiceConfig>;
}

/**
 * Retries a failed document. An open run that waits for retry gets the `requestRetry` update,
 * whose validator answers at once; a run that has already closed is restarted with
 * signal-with-start as a take-over of the failed task.
 */
export async function retryDocument(deps: AdminDeps, documentId: string): Promise<{ taskId: string; via: 'update' | 'signal-with-start' }> {
  const doc = await findDocument(deps.db, documentId);
  if (!doc) throw refuse(`document ${documentId} does not exist`);
  if (doc.lifecycle === 'DELETING') throw refuse(`document ${documentId} is being deleted`);
  const pipeline = doc.last_task_id ? await findPipeline(deps.db, doc.last_task_id) : undefined;
  if (!pipeline) throw refuse(`document ${documentId} has no task to retry`);

  const handle = deps.client.workflow.getHandle<typeof ingestDocument>(ingestWorkflowId(documentId));
  const open = await handle.describe().then(
    (d) => d.status.name === 'RUNNING',
    (error: unknown) => {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    },
  );
  if (open) {
    try {
      const accepted = await handle.executeUpdate(requestRetryUpdate);
      return { taskId: accepted.taskId, via: 'update' };
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) throw new RetryRefusedError(error.cause.message);
      throw error;
    }
  }
  // With no open run, a PENDING/PROCESSING task was interrupted: the take-over converges it.
  if (pipeline.pipeline_status === 'SUCCESS') throw refuse(`task ${pipeline.task_id} succeeded; there is nothing to retry`);
  if (pipeline.superseded_by_task_id) throw refuse(`task ${pipeline.task_id} was already taken over`);
  const taskId = randomUUID();
  await deps.client.workflow.signalWithStart<typeof ingestDocument, []>(INGEST_WORKFLOW_TYPE, {
    workflowId: ingestWorkflowId(documentId),
    taskQueue: deps.config.temporal.taskQueue,
    args: [{ documentId, userId: doc.user_id, datasetId: doc.dataset_id, taskId, retryOfTaskId: pipeline.task_id, retryWait: deps.config.retryWait }],
    signal: retrySignal,
    signalArgs: [],
  });
  return { taskId, via: 'signal-with-start' };
}

/** Starts (or joins) the durable deletion of a document; resolves when it has finished. */
export async function deleteDocument(deps: Pick<AdminDeps, 'client' | 'config'>, documentId: string): Promise<DeleteResult> {
  const workflowId = deleteWorkflowId(documentId);
  try {
    const handle = await deps.client.workflow.start<typeof deleteDocumentWorkflow>(DELETE_WORKFLOW_TYPE, {
      workflowId,
      taskQueue: deps.config.temporal.taskQueue,
      args: [{ documentId }],
    });
    return await handle.result();
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    return deps.client.workflow.getHandle<typeof deleteDocumentWorkflow>(workflowId).result();
  }
}

export interface FailedDocument {
  documentId: string;
  datasetId: string;
  stage: string;
  failureCode: string;
  workflowId: string;
  runId: string;
}

/** Failed documents from a visibility query on the custom search attributes. */
export async function listFailedDocuments(client: Client, datasetId?: string): Promise<FailedDocument[]> {
  const query = [`WorkflowType = '${INGEST_WORKFLOW_TYPE}'`, `PipelineStatus = 'FAILED'`, `ExecutionStatus = 'Running'`];
  if (datasetId) query.push(`DatasetId = '${datasetId.replace(/'/g, "''")}'`);
  const failed: FailedDocument[] = [];
  for await (const execution of client.workflow.list({ query: query.join(' AND ') })) {
    const attrs = execution.searchAttributes;
    const first = (name: string) => String((attrs[name] as unknown[] | undefined)?.[0] ?? '');
    failed.push({
      documentId: first('DocumentId'),
      datasetId: first('DatasetId'),
      stage: first('PipelineStage'),
      failureCode: first('FailureCode'),
      workflowId: execution.workflowId,
      runId: execution.runId,
    });
  }
  return failed;
}
