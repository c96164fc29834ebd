import type { Client } from '@temporalio/client';
import { retryDocument } from '../client/documentAdmin';
import type { Adapters } from '../composition/adapters';
import type { SluiceConfig } from '../config/config';
import { findDocument } from '../db/repositories/documents';
import { findPipeline } from '../db/repositories/pipelines';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pipeline status of the document's current task, or null while it cannot be read. */
async function statusOf(adapters: Adapters, documentId: string, retryTaskId?: string): Promise<string | null> {
  try {
    // After a retry the document's last task is the old one until the new run's prepareTask ran.
    const taskId = retryTaskId ?? (await findDocument(adapters.db, documentId))?.last_task_id;
    const pipeline = taskId ? await findPipeline(adapters.db, taskId) : undefined;
    return pipeline?.pipeline_status ?? null;
  } catch {
    return null;
  }
}

export interface DrainOutcome {
  /** Documents that needed the admin retry (their run exhausted Temporal's retries). */
  adminRetries: string[];
  /** Documents still not SUCCESS at the deadline. */
  unfinished: string[];
}

/**
 * Waits until every document is SUCCESS: one whose run FAILED (Temporal's retries exhausted while
 * a dependency was down) gets at most one admin retry, as an operator would give it.
 */
export async function drain(
  adapters: Adapters,
  client: Client,
  config: Readonly<SluiceConfig>,
  documentIds: string[],
  timeoutMs: number,
): Promise<DrainOutcome> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(documentIds);
  const retried = new Map<string, string>();
  while (pending.size > 0 && Date.now() < deadline) {
    for (const id of [...pending]) {
      const status = await statusOf(adapters, id, retried.get(id));
      if (status === 'SUCCESS') pending.delete(id);
      else if (status === 'FAILED' && !retried.has(id)) {
        const accepted = await retryDocument({ client, db: adapters.db, config }, id).catch(() => null);
        if (accepted) retried.set(id, accepted.taskId);
      } else if (status === 'FAILED') pending.delete(id);
    }
    if (pending.size > 0) await sleep(1000);
  }
  return { adminRetries: [...retried.keys()], unfinished: [...pending] };
}
