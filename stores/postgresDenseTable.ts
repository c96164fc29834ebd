import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database';
import { assertVectorsFit, dimensionMismatch } from './dimensionMismatch';
import type { DenseRecord, EmbeddingModelRef, SearchHit, SearchScope, TenantScope } from './ports';
import { filteredDocumentsQuery, searchCondition } from './postgresDocumentFilter';
import { ensureHnswIndex, indexedVector, ofModel, queryVector, vectorLiteral, type DenseTable } from '../db/pgvector';
import { ownerColumns } from './vectorOwner';

const UPSERT_BATCH = 200;

/**
 * Upsert keyed by chunk id: a chunk has one row per table, so writing it with another model
 * replaces its row (a re-embedding's move). The model's HNSW index is made before its first row.
 */
export async function upsertDenseRows(
  db: Kysely<Database>,
  ensured: Set<string>,
  table: DenseTable,
  storeName: string,
  scope: TenantScope,
  model: EmbeddingModelRef,
  records: DenseRecord[],
): Promise<void> {
  assertVectorsFit(model, storeName, records);
  if (records.length === 0) return;
  await ensureHnswIndex(db, ensured, table, model);
  for (let i = 0; i < records.length; i += UPSERT_BATCH) {
    const rows = records.slice(i, i + UPSERT_BATCH).map((r) => ({
      ...ownerColumns(scope, r),
      model: model.model,
      dimension: model.dimension,
      vector: vectorLiteral(r.vector),
    }));
    await db
      .insertInto(table)
      .values(rows)
      .onConflict((oc) =>
        oc.column('chunk_id').doUpdateSet((eb) => ({
          vector: eb.ref('excluded.vector'),
          model: eb.ref('excluded.model'),
          dimension: eb.ref('excluded.dimension'),
          updated_at: sql`now()`,
        })),
      )
      .execute();
  }
}

/**
 * A filter that keeps at most this share of the searched datasets' documents is searched exactly
 * over their rows (found through the document index); a broader one walks the HNSW graph with the
 * filter inside the scan, which meets enough passing rows early (bench:search, "filtered").
 */
const EXACT_FILTER_SHARE = 0.1;

/**
 * The `limit` rows of the model in the searched datasets closest to `vector` by cosine, best
 * first. One query on the model's HNSW index with pgvector's iterative scan: the tenant filter
 * (and a document filter) drops other rows as the graph is walked, and the scan goes on until
 * `limit` passing rows are found (`relaxed_order`: the few rows that come slightly out of order
 * are sorted here), so a dataset that is a small share of the model's rows still gets its full
 * list. Where the planner finds the dataset's rows few, it ranks them exactly through the tenant
 * index instead, and a selective document filter is always ranked exactly over its documents'
 * rows. A model with no index (past 4,000 dimensions) is ranked exactly.
 */
export async function searchDenseRows(
  db: Kysely<Database>,
  table: DenseTable,
  storeName: string,
  scope: SearchScope,
  model: EmbeddingModelRef,
  vector: number[],
  limit: number,
  /** pgvector's `hnsw.ef_search`: the candidates the graph walk keeps (SLUICE_PGVECTOR_EF_SEARCH); at least `limit`. */
  efSearch: number,
): Promise<SearchHit[]> {
  if (vector.length !== model.dimension) {
    throw dimensionMismatch(model, storeName, `the query vector has ${vector.length} dimensions`);
  }
  if (limit <= 0) return [];
  const column = indexedVector(model.dimension) ?? sql`vector`;
  const query = queryVector(vector, model.dimension);
  let condition = searchCondition(scope);
  let exact = false;
  if (scope.filter) {
    const { rows } = await filteredDocumentsQuery({ ...scope, filter: scope.filter }).execute(db);
    const matching = rows[0]?.matching ?? [];
    if (matching.length === 0) return [];
    if (matching.length <= EXACT_FILTER_SHARE * (rows[0]?.total ?? 0)) {
      exact = true;
      condition = sql<boolean>`${searchCondition({ ...scope, filter: undefined })} AND document_id = ANY(${matching}::text[])`;
    }
  }
  const rows = await db.transaction().execute(async (trx) => {
    await sql`SELECT set_config('hnsw.ef_search', ${String(Math.min(1000, Math.max(efSearch, limit)))}, true),
                     set_config('hnsw.iterative_scan', 'relaxed_order', true),
                     set_config('enable_indexscan', ${exact ? 'off' : 'on'}, true)`.execute(trx);
    const found = await sql<{ chunk_id: string; distance: number }>`
      SELECT chunk_id, ${column} <=> ${query} AS distance FROM ${sql.table(table)}
       WHERE ${ofModel(model)} AND ${condition}
       ORDER BY ${column} <=> ${query}
       LIMIT ${limit}`.execute(trx);
    return found.rows;
  });
  return rows
    .map((r) => ({ chunkId: r.chunk_id, score: cosineOfDistance(r.distance) }))
    .sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1));
}

/** Cosine from pgvector's cosine distance; a zero vector, whose distance is NaN, scores 0. */
export function cosineOfDistance(distance: number | string | null): number {
  const score = 1 - Number(distance);
  return Number.isFinite(score) ? score : 0;
}
