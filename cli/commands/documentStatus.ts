import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { countChunks } from '../../db/repositories/chunks';
import { findDocument } from '../../db/repositories/documents';
import { findPipeline, stageStatusesOf } from '../../db/repositories/pipelines';
import { findTask } from '../../db/repositories/tasks';
import type { OcrPageReport } from '../../contracts/ocrPages';
import { stageColumns } from '../../db/repositories/stageColumns';
import { STAGES } from '../../contracts/stages';
import type { PlanState } from '../../contracts/chunkingPlan';
import { latestPlanOfDocument } from '../../db/repositories/chunkingPlans';

export interface DocumentStatusReport {
  documentId: string;
  fileName: string;
  datasetId: string;
  /** `upload`, or the synced source that keeps the document. */
  source: string;
  lifecycle: string;
  taskId: string | null;
  pipelineStatus: string | null;
  stages: { stage: string; status: string; ms: number | null }[];
  failureCode: string | null;
  failureReason: string | null;
  chunks: { total: number; active: number; dense: number; sparse: number; keyword: number };
  /** The pages the latest task's parse read by OCR (empty: none). */
  ocrPages: OcrPageReport[];
  /** The latest chunking plan: its state (WAIT_CONFIRM, CONFIRMED, EXECUTED), strategy and reason; null before the plan step. */
  plan: { state: PlanState; strategy: string; reason: string; confirmedBy: string | null } | null;
}

/** Per-stage status, timings and failure of the document's latest task, read from Postgres. */
export async function documentStatus(db: Kysely<Database>, documentId: string): Promise<DocumentStatusReport | null> {
  const doc = await findDocument(db, documentId);
  if (!doc) return null;
  const pipeline = doc.last_task_id ? await findPipeline(db, doc.last_task_id) : undefined;
  const statuses = pipeline ? stageStatusesOf(pipeline) : null;
  const task = doc.last_task_id ? await findTask(db, doc.last_task_id) : undefined;
  const plan = await latestPlanOfDocument(db, documentId);
  return {
    documentId: doc.id,
    fileName: doc.file_name,
    datasetId: doc.dataset_id,
    source: doc.source,
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
    ocrPages: task?.ocr_pages ?? [],
    plan: plan
      ? { state: plan.state, strategy: plan.plan.strategy, reason: plan.plan.reason, confirmedBy: plan.confirmedBy }
      : null,
  };
}

/** The report as `sluice status` prints it, ending with the link to the run in the Temporal Web UI. */
export function formatStatus(report: DocumentStatusReport, runUrl: string): string {
  const lines = [
    `document  ${report.documentId}  (${report.fileName}, dataset ${report.datasetId}, ${report.lifecycle})`,
    `source    ${report.source === 'upload' ? 'upload' : `synced source ${report.source}`}`,
    `task      ${report.taskId ?? '-'}  pipeline ${report.pipelineStatus ?? '-'}`,
    ...report.stages.map((s) => `  ${s.stage.padEnd(20)} ${s.status.padEnd(10)} ${s.ms === null ? '' : `${s.ms} ms`}`),
    `chunks    ${report.chunks.active} active (dense ${report.chunks.dense}, sparse ${report.chunks.sparse}, keyword ${report.chunks.keyword})`,
  ];
  if (report.plan) lines.push(formatPlan(report.plan));
  if (report.ocrPages.length > 0) lines.push(formatOcrPages(report.ocrPages));
  if (report.failureCode) lines.push(`failure   ${report.failureReason ?? report.failureCode}`);
  lines.push(`web UI    ${runUrl}`);
  return lines.join('\n');
}

/** "plan      WAIT_CONFIRM qa: the document reads as questions with answers"; who confirmed it, when someone did. */
function formatPlan(plan: NonNullable<DocumentStatusReport['plan']>): string {
  const by = plan.confirmedBy ? ` (confirmed by ${plan.confirmedBy})` : '';
  const waiting = plan.state === 'WAIT_CONFIRM' ? '  → sluice plan show|confirm' : '';
  return `plan      ${plan.state} ${plan.strategy}: ${plan.reason}${by}${waiting}`;
}

/** "ocr       3 pages: 1 (no-text, 0.98), 2 (no-text, 0.97), 7 (garbled, 0.91)"; long lists end with how many more. */
function formatOcrPages(pages: readonly OcrPageReport[]): string {
  const shown = pages.slice(0, 20).map((p) => `${p.page} (${p.reason}, ${p.confidence.toFixed(2)})`);
  const more = pages.length > shown.length ? `, … ${pages.length - shown.length} more` : '';
  return `ocr       ${pages.length} page${pages.length === 1 ? '' : 's'}: ${shown.join(', ')}${more}`;
}
