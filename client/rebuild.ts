import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import { DEFAULT_CHUNKING_PARAMETERS, type ChunkingPlan } from '../contracts/chunkingPlan';
import { ChunkingPlanSchema } from '../contracts/chunkingPlanSchema';
import {
  rebuildDatasetWorkflowId,
  REBUILD_DATASET_WORKFLOW_TYPE,
  type RebuildCounts,
  type RebuildDatasetInput,
} from '../contracts/rebuild';
import type { Database } from '../db/database';
import { findDocument } from '../db/repositories/documents';
import { findPipeline } from '../db/repositories/pipelines';
import { findTask } from '../db/repositories/tasks';
import { callerClaimFor } from './startRun';
import type { rebuildDataset as rebuildDatasetWorkflow } from '../workflows/rebuildDataset';
import { RetryRefusedError } from './documentAdmin';
import { runOf, startIngestRun } from './startRun';

interface RebuildDeps {
  client: Client;
  db: Kysely<Database>;
  config: Readonly<SluiceConfig>;
}

const refuse = (reason: string) => new RetryRefusedError(`RETRY_VALIDATION_FAILED:${reason}`);

/**
 * Rebuilds one document's index under a plan (docs/rebuild.md): a durable run that takes over
 * its latest succeeded task, keeps its parse, re-chunks the stored markdown into a new chunk set,
 * reuses the vectors of unchanged texts, and switches search to the new set when it succeeds.
 * Refused (RETRY_VALIDATION_FAILED) for a document of another user, one being deleted, one whose
 * latest task did not succeed, or one with an open run.
 */
export async function rebuildDocument(
  deps: RebuildDeps,
  scope: { userId: string },
  documentId: string,
  plan?: ChunkingPlan,
): Promise<{ documentId: string; taskId: string; rebuildOfTaskId: string }> {
  const doc = await findDocument(deps.db, documentId);
  // Another user's document is answered as one that does not exist.
  if (!doc || doc.user_id !== scope.userId) throw refuse(`document ${documentId} does not exist`);
  if (doc.lifecycle !== 'ACTIVE') throw refuse(`document ${documentId} is being deleted`);
  const pipeline = doc.last_task_id ? await findPipeline(deps.db, doc.last_task_id) : undefined;
  if (!pipeline || pipeline.pipeline_status !== 'SUCCESS')
    throw refuse(`its latest task is ${pipeline?.pipeline_status ?? 'missing'}; only a succeeded document is rebuilt`);
  if (!(await findTask(deps.db, pipeline.task_id))?.markdown_object_key)
    throw refuse(`task ${pipeline.task_id} has no stored markdown to rebuild from`);
  const taskId = randomUUID();
  try {
    await startIngestRun(deps.client, deps.config, {
      ...runOf(doc),
      taskId,
      rebuildOfTaskId: pipeline.task_id,
      ...(plan ? { chunkingPlan: plan } : {}),
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    throw refuse(`a run for document ${documentId} is open; rebuild it when that run has finished`);
  }
  return { documentId, taskId, rebuildOfTaskId: pipeline.task_id };
}

/**
 * Starts the durable rebuild of every document of a dataset (workflows/rebuildDataset.ts), at most
 * SLUICE_REBUILD_MAX_OPEN document runs open at once. One per (user, dataset) at a time: a second
 * start joins the running one (`alreadyRunning`).
 */
export async function startDatasetRebuild(
  deps: Pick<RebuildDeps, 'client' | 'config'>,
  scope: { userId: string; datasetId: string },
  plan?: ChunkingPlan,
): Promise<{ workflowId: string; alreadyRunning: boolean; result: () => Promise<RebuildCounts> }> {
  const workflowId = rebuildDatasetWorkflowId(scope);
  const input: RebuildDatasetInput = {
    ...scope,
    ...(plan ? { chunkingPlan: plan } : {}),
    maxOpen: deps.config.rebuildMaxOpen,
    retryWait: deps.config.retryWait,
    ...callerClaimFor(deps.config, scope.userId),
  };
  let alreadyRunning = false;
  try {
    await deps.client.workflow.start<typeof rebuildDatasetWorkflow>(REBUILD_DATASET_WORKFLOW_TYPE, {
      workflowId,
      taskQueue: deps.config.temporal.taskQueue,
      args: [input],
      staticSummary: 'rebuild a dataset',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    alreadyRunning = true;
  }
  const handle = deps.client.workflow.getHandle<typeof rebuildDatasetWorkflow>(workflowId);
  return { workflowId, alreadyRunning, result: () => handle.result() };
}

/** What a caller may say about the plan of a rebuild: a strategy and any of its sizes. */
export interface PlanRequest {
  strategy?: string;
  childTokens?: number;
  overlapTokens?: number;
  parentTokens?: number | null;
}

/**
 * The plan a rebuild request names, validated (ChunkingPlanSchema); undefined when it names
 * nothing, which rebuilds under the deployment's chunker settings. Sizes left out are the defaults.
 */
export function planOf(request: PlanRequest, reason: string): ChunkingPlan | undefined {
  const named = Object.values(request).some((v) => v !== undefined);
  if (!named) return undefined;
  const result = ChunkingPlanSchema.safeParse({
    strategy: request.strategy ?? 'general',
    parameters: {
      childTokens: request.childTokens ?? DEFAULT_CHUNKING_PARAMETERS.childTokens,
      overlapTokens: request.overlapTokens ?? DEFAULT_CHUNKING_PARAMETERS.overlapTokens,
      parentTokens:
        request.parentTokens === undefined ? DEFAULT_CHUNKING_PARAMETERS.parentTokens : request.parentTokens,
    },
    reason,
  });
  if (!result.success)
    throw new InvalidPlanError(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return result.data;
}

/** A rebuild request whose plan is outside the contract (the API answers 400). */
export class InvalidPlanError extends Error {
  override readonly name = 'InvalidPlanError';
}
