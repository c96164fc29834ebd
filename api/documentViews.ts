import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import {
  PIPELINE_STATUSES,
  STAGE_STATUSES,
  STAGES,
  type PipelineStatus,
  type Stage,
  type StageStatus,
} from '../contracts/stages';
import type { Database } from '../db/database';
import { latestPlanStatesOf } from '../db/repositories/chunkingPlans';
import { chunkProgressOf } from '../db/repositories/chunks';
import {
  listCatalogRows,
  type CatalogFilter,
  type CatalogRow,
  type PageCursor,
  type PipelineJson,
} from '../db/repositories/documentCatalog';
import { stageColumns } from '../db/repositories/stageColumns';
import { workflowUrl } from '../client/workflowUrl';
import type { DocumentView } from './schemas';

const oneOf = <T extends string>(allowed: readonly T[], value: unknown, fallback: T): T =>
  (allowed as readonly unknown[]).includes(value) ? (value as T) : fallback;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const iso = (value: unknown): string | null => (typeof value === 'string' ? new Date(value).toISOString() : null);

function stagesOf(pipeline: PipelineJson | null): { stage: Stage; status: StageStatus; ms: number | null }[] {
  return STAGES.map((stage) => {
    const cols = stageColumns(stage);
    return { stage, status: oneOf(STAGE_STATUSES, pipeline?.[cols.status], 'PENDING'), ms: num(pipeline?.[cols.ms]) };
  });
}

export function toDocumentView(
  config: Readonly<SluiceConfig>,
  row: CatalogRow,
  chunks: DocumentView['chunks'] | undefined,
  plan: DocumentView['plan'] = null,
): DocumentView {
  const p = row.pipeline;
  const stages = stagesOf(p);
  const pipelineStatus: PipelineStatus = oneOf(PIPELINE_STATUSES, p?.pipeline_status, 'PENDING');
  const failureCode = text(p?.failure_code);
  return {
    documentId: row.id,
    datasetId: row.dataset_id,
    fileName: row.file_name,
    fileType: row.file_type,
    sizeBytes: Number(row.size_bytes),
    contentSha256: row.content_sha256,
    lifecycle: row.lifecycle,
    createdAt: row.created_at.toISOString(),
    taskId: row.last_task_id,
    pipelineStatus,
    currentStage: stages.find((s) => s.status === 'PROCESSING')?.stage ?? null,
    stages,
    chunks: chunks ?? { total: 0, active: 0, dense: 0, sparse: 0, keyword: 0 },
    failure:
      pipelineStatus === 'FAILED' && failureCode
        ? { stage: text(p?.failed_stage), code: failureCode, reason: text(p?.failure_reason) }
        : null,
    startedAt: iso(p?.started_at),
    finishedAt: iso(p?.finished_at),
    workflowUrl: workflowUrl(config, row.id),
    plan,
    metadata: row.metadata,
    metadataVersion: row.metadata_version,
    updatedAt: row.metadata_updated_at.toISOString(),
    pageCount: row.page_count,
    language: row.language,
    source: row.source,
  };
}

export async function loadDocumentViews(
  db: Kysely<Database>,
  config: Readonly<SluiceConfig>,
  filter: CatalogFilter,
): Promise<{ views: DocumentView[]; rows: CatalogRow[] }> {
  const rows = await listCatalogRows(db, filter);
  const ids = rows.map((r) => r.id);
  const [progress, plans] = await Promise.all([chunkProgressOf(db, ids), latestPlanStatesOf(db, ids)]);
  return { rows, views: rows.map((r) => toDocumentView(config, r, progress.get(r.id), plans.get(r.id) ?? null)) };
}

export async function loadDocumentView(
  db: Kysely<Database>,
  config: Readonly<SluiceConfig>,
  userId: string,
  documentId: string,
): Promise<DocumentView | null> {
  const { views } = await loadDocumentViews(db, config, { userId, documentIds: [documentId], limit: 1 });
  return views[0] ?? null;
}

/** `timestamptz::text` as Postgres prints it, e.g. `2026-12-01 09:00:00.123456+00`. */
const POSTGRES_TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/;

export function encodeCursor(row: CatalogRow): string {
  return Buffer.from(JSON.stringify([row.created_at_text, row.id])).toString('base64url');
}

export function decodeCursor(cursor: string): PageCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [createdAt, id] = value as unknown[];
    if (typeof createdAt !== 'string' || typeof id !== 'string' || !POSTGRES_TIMESTAMP.test(createdAt)) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}
