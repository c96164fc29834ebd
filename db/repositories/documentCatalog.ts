import { sql, type Kysely } from 'kysely';
import type { PipelineStatus } from '../../contracts/stages';
import type { Database, DocumentRow } from '../database';

/**
 * Read models for the HTTP API: a user's documents with their latest pipeline row, paged and
 * filtered, plus usage and dataset summaries. Every query is scoped by user.
 */

/** The pipeline row as Postgres' `to_jsonb` renders it: timestamps become ISO strings. */
export type PipelineJson = Record<string, string | number | null>;

export type CatalogRow = DocumentRow & {
  /** `created_at` as Postgres text: the exact (microsecond) value, for keyset cursors. */
  created_at_text: string;
  pipeline: PipelineJson | null;
};

export interface PageCursor {
  createdAt: string;
  id: string;
}

export interface CatalogFilter {
  userId: string;
  datasetId?: string;
  documentIds?: string[];
  /** Pipeline status of the latest task; a document with no task yet counts as PENDING. */
  status?: PipelineStatus;
  lifecycle?: 'ACTIVE' | 'DELETING';
  after?: PageCursor;
  limit: number;
}

/** Newest first; keyset-paged on (created_at, id). */
export async function listCatalogRows(db: Kysely<Database>, filter: CatalogFilter): Promise<CatalogRow[]> {
  let query = db
    .selectFrom('documents')
    .leftJoin('pipelines', 'pipelines.task_id', 'documents.last_task_id')
    .selectAll('documents')
    .select([
      sql<string>`documents.created_at::text`.as('created_at_text'),
      sql<PipelineJson | null>`case when pipelines.task_id is null then null else to_jsonb(pipelines) end`.as(
        'pipeline',
      ),
    ])
    .where('documents.user_id', '=', filter.userId);
  if (filter.datasetId !== undefined) query = query.where('documents.dataset_id', '=', filter.datasetId);
  if (filter.documentIds !== undefined) {
    if (filter.documentIds.length === 0) return [];
    query = query.where('documents.id', 'in', filter.documentIds);
  }
  if (filter.lifecycle !== undefined) query = query.where('documents.lifecycle', '=', filter.lifecycle);
  if (filter.status !== undefined) {
    query = query.where(sql<string>`coalesce(pipelines.pipeline_status, 'PENDING')`, '=', filter.status);
  }
  if (filter.after) {
    const { createdAt, id } = filter.after;
    query = query.where(sql<boolean>`(documents.created_at, documents.id) < (${createdAt}::timestamptz, ${id})`);
  }
  return query.orderBy('documents.created_at', 'desc').orderBy('documents.id', 'desc').limit(filter.limit).execute();
}

export interface DatasetSummary {
  datasetId: string;
  documents: number;
  failed: number;
  succeeded: number;
  bytes: number;
}

export async function listDatasets(db: Kysely<Database>, userId: string): Promise<DatasetSummary[]> {
  const rows = await db
    .selectFrom('documents')
    .leftJoin('pipelines', 'pipelines.task_id', 'documents.last_task_id')
    .select((eb) => [
      'documents.dataset_id',
      eb.fn.countAll<number>().as('documents'),
      eb.fn.count<number>('documents.id').filterWhere('pipelines.pipeline_status', '=', 'FAILED').as('failed'),
      eb.fn.count<number>('documents.id').filterWhere('pipelines.pipeline_status', '=', 'SUCCESS').as('succeeded'),
      sql<number>`coalesce(sum(documents.size_bytes), 0)::float8`.as('bytes'),
    ])
    .where('documents.user_id', '=', userId)
    .where('documents.lifecycle', '=', 'ACTIVE')
    .groupBy('documents.dataset_id')
    .orderBy('documents.dataset_id')
    .execute();
  return rows.map((r) => ({
    datasetId: r.dataset_id,
    documents: Number(r.documents),
    failed: Number(r.failed),
    succeeded: Number(r.succeeded),
    bytes: Number(r.bytes),
  }));
}

/** What the user's ACTIVE documents hold, for the per-user quota. */
export async function usageOf(db: Kysely<Database>, userId: string): Promise<{ documents: number; bytes: number }> {
  const row = await db
    .selectFrom('documents')
    .select((eb) => [
      eb.fn.countAll<number>().as('documents'),
      sql<number>`coalesce(sum(size_bytes + produced_bytes + window_bytes), 0)::float8`.as('bytes'),
    ])
    .where('user_id', '=', userId)
    .where('lifecycle', '=', 'ACTIVE')
    .executeTakeFirstOrThrow();
  return { documents: Number(row.documents), bytes: Number(row.bytes) };
}

/** The document if it exists and belongs to the user; another user's document is simply absent. */
export async function findUserDocument(
  db: Kysely<Database>,
  userId: string,
  documentId: string,
): Promise<DocumentRow | undefined> {
  return db
    .selectFrom('documents')
    .selectAll()
    .where('id', '=', documentId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function deleteDocumentRow(db: Kysely<Database>, documentId: string): Promise<void> {
  await db.deleteFrom('documents').where('id', '=', documentId).execute();
}
