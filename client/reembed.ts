import { randomUUID } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import type { Database } from '../db/database';
import { documentsWithStaleVectors } from '../db/repositories/chunks';
import { findDocument } from '../db/repositories/documents';
import { findPipeline } from '../db/repositories/pipelines';
import type { EmbedderResolver } from '../embedders/embedderResolver';
import { runOf, startIngestRun } from './startRun';

export interface ReembedReport {
  model: string;
  dimension: number;
  started: { documentId: string; taskId: string }[];
  skipped: { documentId: string; reason: string }[];
}

/**
 * After a model change: every document of the dataset whose vectors another model (or
 * dimension) made gets a durable re-embedding run — a take-over of its succeeded task that
 * keeps the parse, chunks and keyword entries and redoes VECTORIZING and SPARSE_VECTORIZING.
 */
export async function reembedDataset(
  deps: { client: Client; db: Kysely<Database>; config: Readonly<SluiceConfig>; embedders: EmbedderResolver },
  scope: { userId: string; datasetId: string },
): Promise<ReembedReport> {
  const embedder = await deps.embedders.forUser(scope.userId);
  const report: ReembedReport = { model: embedder.model, dimension: embedder.dimension, started: [], skipped: [] };
  for (const documentId of await documentsWithStaleVectors(deps.db, scope, embedder)) {
    const doc = await findDocument(deps.db, documentId);
    const pipeline = doc?.last_task_id ? await findPipeline(deps.db, doc.last_task_id) : undefined;
    if (!doc || doc.lifecycle !== 'ACTIVE' || !pipeline) {
      report.skipped.push({ documentId, reason: 'deleted or being deleted' });
      continue;
    }
    if (pipeline.pipeline_status !== 'SUCCESS') {
      // A retry of a failed document embeds its pending chunks with the current model anyway.
      report.skipped.push({ documentId, reason: `its latest task is ${pipeline.pipeline_status}; retry it instead` });
      continue;
    }
    const taskId = randomUUID();
    try {
      await startIngestRun(deps.client, deps.config, { ...runOf(doc), taskId, reembedOfTaskId: pipeline.task_id });
      report.started.push({ documentId, taskId });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      report.skipped.push({ documentId, reason: 'a run for it is open; re-run reembed when it has finished' });
    }
  }
  return report;
}
