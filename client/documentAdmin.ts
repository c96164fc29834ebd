import { randomUUID } from 'node:crypto';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
  type WorkflowHandle,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import { deleteWorkflowId, DELETE_WORKFLOW_TYPE, type DeleteInput, type DeleteResult } from '../contracts/deletion';
import { callerClaimFor } from './startRun';
import { ingestWorkflowId, INGEST_WORKFLOW_TYPE } from '../contracts/ingest';
import { requestRetryUpdate } from '../contracts/ingestApi';
import type { Database } from '../db/database';
import { findDocument } from '../db/repositories/documents';
import { findPipeline } from '../db/repositories/pipelines';
import type { deleteDocument as deleteDocumentWorkflow } from '../workflows/deleteDocument';
import type { ingestDocument } from '../workflows/ingestDocument';
import { runOf, startIngestRun } from './startRun';

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
 * whose validator answers at once; when the run has already closed, a new run is started as a
 * take-over of the failed task — with a start that fails if any run is open, rather than
 * signal-with-start, so that of many concurrent retries exactly one is told it was accepted.
 */
export async function retryDocument(
  deps: AdminDeps,
  documentId: string,
): Promise<{ taskId: string; via: 'update' | 'start' }> {
  const doc = await findDocument(deps.db, documentId);
  if (!doc) throw refuse(`document ${documentId} does not exist`);
  if (doc.lifecycle === 'DELETING') throw refuse(`document ${documentId} is being deleted`);
  const pipeline = doc.last_task_id ? await findPipeline(deps.db, doc.last_task_id) : undefined;
  if (!pipeline) throw refuse(`document ${documentId} has no task to retry`);

  const handle = deps.client.workflow.getHandle<typeof ingestDocument>(ingestWorkflowId(documentId));
  // Each turn either gets an answer or learns the run changed state under it (closed, or
  // continued-as-new for someone else's retry); three turns cover any such interleaving.
  for (let turn = 0; turn < 3; turn++) {
    if (await isRunning(handle)) {
      try {
        const accepted = await handle.executeUpdate(requestRetryUpdate);
        return { taskId: accepted.taskId, via: 'update' };
      } catch (error) {
        if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure)
          throw new RetryRefusedError(error.cause.message);
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        continue;
      }
    }
    // With no open run, a PENDING/PROCESSING task was interrupted: the take-over converges it.
    const latest = (await findPipeline(deps.db, pipeline.task_id)) ?? pipeline;
    if (latest.pipeline_status === 'SUCCESS')
      throw refuse(`task ${pipeline.task_id} succeeded; there is nothing to retry`);
    if (latest.superseded_by_task_id) throw refuse(`task ${pipeline.task_id} was already taken over`);
    const taskId = randomUUID();
    try {
      await startIngestRun(deps.client, deps.config, { ...runOf(doc), taskId, retryOfTaskId: pipeline.task_id });
      return { taskId, via: 'start' };
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
  throw refuse(`a retry of task ${pipeline.task_id} was already accepted`);
}

async function isRunning(handle: WorkflowHandle): Promise<boolean> {
  try {
    return (await handle.describe()).status.name === 'RUNNING';
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/**
 * Starts (or joins) the durable deletion of a document on behalf of the user who owns it; resolves
 * when it has finished. Another user's document fails the deletion as ID_MISMATCH, changing nothing.
 */
export async function deleteDocument(
  deps: Pick<AdminDeps, 'client' | 'config'>,
  request: DeleteInput,
): Promise<DeleteResult> {
  const workflowId = deleteWorkflowId(request.documentId);
  try {
    const handle = await deps.client.workflow.start<typeof deleteDocumentWorkflow>(DELETE_WORKFLOW_TYPE, {
      workflowId,
      taskQueue: deps.config.temporal.taskQueue,
      args: [{ ...request, ...callerClaimFor(deps.config, request.userId) }],
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
  /** The synced source that started the run; empty for an upload's. */
  sourceId: string;
  workflowId: string;
  runId: string;
}

/** Failed documents from a visibility query on the custom search attributes. */
export async function listFailedDocuments(client: Client, datasetId?: string): Promise<FailedDocument[]> {
  const query = [
    `WorkflowType = '${INGEST_WORKFLOW_TYPE}'`,
    `PipelineStatus = 'FAILED'`,
    `ExecutionStatus = 'Running'`,
  ];
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
      sourceId: first('SourceId'),
      workflowId: execution.workflowId,
      runId: execution.runId,
    });
  }
  return failed;
}
