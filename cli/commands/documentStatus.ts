import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { countChunks } from '../../db/repositories/chunks';
import { findDocument } from '../../db/repositories/documents';
import { findPipeline, stageStatusesOf } from '../../db/repositories/pipelines';
import { stageColumns } from '../../db/repositories/stageColumns';
import { STAGES } from '../../contracts/stages';

export interface DocumentStatusReport {
  documentId: string;
  fileName: string;
  datasetId: string;
  lifecycle: string;
  taskId: string | null;
  pipelineStatus: string | null;
  stages: { stage: string; status: string; ms: number | null }[];
  failureCode: string | null;
  failureReason: string | null;
  chunks: { total: number; active: number; dense: number; sparse: number; keyword: number };
}

/** Per-stage status, timings and failure of the document's latest task, read from Postgres. */
export async function documentStatus(db: Kysely<Database>, documentId: string): Promise<DocumentStatusReport | null> {
  const doc = await findDocument(db, documentId);
  if (!doc) return null;
  const pipeline = doc.last_task_id ? await findPipeline(db, doc.last_task_id) : undefined;
  const statuses = pipeline ? stageStatusesOf(pipeline) : null;
  return {
    documentId: doc.id,
    fileName: doc.file_name,
    datasetId: doc.dataset_id,
    lifecycle: doc.lifecycle,
    taskId: doc.last_task_id,
    pipelineStatus: pipeline?.pipeline_status ?? null,
    stages: STAGES.map((stage) => ({
      stage,
      status: statuses?.[stage] ?? 'PENDING',
      ms: pipeline ? pipeline[stageColumns(stage).ms] : null,
    })),
    failureCode: pipeline?.failure_code ?? null,
    failureReason: pipeline?.failure_reason ?? null,
    chunks: await countChunks(db, documentId),
  };
}

/** The report as `sluice status` prints it, ending with the link to the run in the Temporal Web UI. */
export function formatStatus(report: DocumentStatusReport, runUrl: string): string {
  const lines = [
    `document  ${report.documentId}  (${report.fileName}, dataset ${report.datasetId}, ${report.lifecycle})`,
    `task      ${report.taskId ?? '-'}  pipeline ${report.pipelineStatus ?? '-'}`,
    ...report.stages.map((s) => `  ${s.stage.padEnd(20)} ${s.status.padEnd(10)} ${s.ms === null ? '' : `${s.ms} ms`}`),
    `chunks    ${report.chunks.active} active (dense ${report.chunks.dense}, sparse ${report.chunks.sparse}, keyword ${report.chunks.keyword})`,
  ];
  if (report.failureCode) lines.push(`failure   ${report.failureReason ?? report.failureCode}`);
  lines.push(`web UI    ${runUrl}`);
  return lines.join('\n');
}
