import type { Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import type { ChunkingPlan, PlannedChunking } from '../contracts/chunkingPlan';
import { ingestWorkflowId } from '../contracts/ingest';
import { chunkingPlanQuery, confirmPlanUpdate, type PlanConfirmation } from '../contracts/ingestApi';
import type { Database } from '../db/database';
import { latestPlanOfDocument, type StoredPlan } from '../db/repositories/chunkingPlans';

/**
 * A document's chunking plan: the stored row of its latest task (state, reason, preview), which
 * survives the run; `confirmPlan` goes to the run that waits for it.
 */
export async function showPlan(db: Kysely<Database>, documentId: string): Promise<StoredPlan | undefined> {
  return latestPlanOfDocument(db, documentId);
}

/** The live plan of the document's run, straight from the workflow; null before its plan step. */
export async function queryPlan(client: Client, documentId: string): Promise<PlannedChunking | null> {
  return client.workflow.getHandle(ingestWorkflowId(documentId)).query(chunkingPlanQuery);
}

/** A document's plan as a reviewer sees it now, and where it was read from. */
export interface CurrentPlan {
  planned: PlannedChunking;
  taskId: string | null;
  confirmedBy: string | null;
  source: 'workflow' | 'database';
}

/**
 * The plan of the document's latest task: while it waits for confirmation, live from the run (the
 * `chunkingPlan` query, the workflow's own state); once decided, or when the run cannot answer
 * (closed, no worker), the stored row, which outlives the run. Undefined before the plan step.
 */
export async function currentPlan(
  deps: { client: Client; db: Kysely<Database> },
  documentId: string,
): Promise<CurrentPlan | undefined> {
  const stored = await showPlan(deps.db, documentId);
  if (stored && stored.state !== 'WAIT_CONFIRM')
    return { planned: stored, taskId: stored.taskId, confirmedBy: stored.confirmedBy, source: 'database' };
  const live = await queryPlan(deps.client, documentId).catch(() => null);
  if (live) return { planned: live, taskId: stored?.taskId ?? null, confirmedBy: null, source: 'workflow' };
  return stored && { planned: stored, taskId: stored.taskId, confirmedBy: stored.confirmedBy, source: 'database' };
}

/** Confirms the waiting plan (as proposed with `{}`); the update's validator answers a refusal at once. */
export async function confirmPlan(
  client: Client,
  documentId: string,
  confirmation: PlanConfirmation,
): Promise<ChunkingPlan> {
  return client.workflow.getHandle(ingestWorkflowId(documentId)).executeUpdate(confirmPlanUpdate, {
    args: [confirmation],
  });
}
