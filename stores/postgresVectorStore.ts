import { sql, type Kysely } from 'kysely';
import { DEFAULT_EF_SEARCH } from '../contracts/pgvectorSearch';
import type { Database } from '../db/database';
import { ensureHnswIndex } from '../db/pgvector';
import { searchDenseRows, upsertDenseRows } from './postgresDenseTable';
import { scoreWindowRows, upsertWindowRows } from './postgresWindowTable';
import { copyDenseRows, copyWindowRows } from './postgresVectorCopy';
import { searchCondition } from './postgresDocumentFilter';
import { ownerColumns } from './vectorOwner';
import type { TenantScope, VectorStore } from './ports';

const UPSERT_BATCH = 200;

function* inBatches<T>(records: T[]): Generator<T[]> {
  for (let i = 0; i < records.length; i += UPSERT_BATCH) yield records.slice(i, i + UPSERT_BATCH);
}

const NAME = 'Postgres (pgvector)';
/** Every table holding a chunk's vectors: what a delete must reach. */
const VECTOR_TABLES = ['dense_vectors', 'language_dense_vectors', 'window_dense_vectors', 'sparse_vectors'] as const;
const DENSE_TABLES = ['dense_vectors', 'language_dense_vectors', 'window_dense_vectors'] as const;

/** Deletes the tenant's vector rows whose `column` is one of `values`, in every vector table, at once. */
async function deleteVectorRows(
  db: Kysely<Database>,
  scope: TenantScope,
  column: 'document_id' | 'chunk_id',
  values: readonly string[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of VECTOR_TABLES) {
      await trx
        .deleteFrom(table)
        .where(column, 'in', values)
        .where('user_id', '=', scope.userId)
        .where('dataset_id', '=', scope.datasetId)
        .execute();
    }
  });
}

/**
 * The embedded-default vector store, and the production one on a managed Postgres: dense and
 * sparse vectors in Postgres, dense ones as pgvector `vector` values searched through an HNSW index
 * per model and dimension (stores/pgvectorIndex.ts, stores/postgresDenseTable.ts). A dense row is
 * keyed by chunk and carries its model and dimension: writing a chunk with another model replaces
 * its row (the move of a re-embedding), and a search reads one model's rows. The second dense
 * vector (the chunk language's model) has a table of its own with the same rules; its passage
 * windows, several rows per chunk, are read by chunk id for a search's candidates and score each
 * chunk by its best.
 */
export function createPostgresVectorStore(
  db: Kysely<Database>,
  { efSearch = DEFAULT_EF_SEARCH }: { efSearch?: number } = {},
): VectorStore {
  const ensured = new Set<string>();
  return {
    name: NAME,

    upsertDense: (scope, model, records) => upsertDenseRows(db, ensured, 'dense_vectors', NAME, scope, model, records),
    upsertLanguageDense: (scope, model, records) =>
      upsertDenseRows(db, ensured, 'language_dense_vectors', NAME, scope, model, records),
    upsertPassageWindows: (scope, model, records) => upsertWindowRows(db, NAME, scope, model, records),

    async copyDense(scope, model, copies) {
      await ensureHnswIndex(db, ensured, 'dense_vectors', model);
      return copyDenseRows(db, 'dense_vectors', scope, model, copies);
    },

    async copyLanguageDense(scope, model, copies) {
      await ensureHnswIndex(db, ensured, 'language_dense_vectors', model);
      const copied = await copyDenseRows(db, 'language_dense_vectors', scope, model, copies);
      const done = new Set(copied);
      await copyWindowRows(
        db,
        scope,
        model,
        copies.filter((c) => done.has(c.toChunkId)),
      );
      return copied;
    },

    async upsertSparse(scope, records) {
      for (const batch of inBatches(records)) {
        const rows = batch.map((r) => ({
          ...ownerColumns(scope, r),
          indices: r.sparse.indices,
          weights: r.sparse.values,
        }));
        await db
          .insertInto('sparse_vectors')
          .values(rows)
          .onConflict((oc) =>
            oc.column('chunk_id').doUpdateSet((eb) => ({
              indices: eb.ref('excluded.indices'),
              weights: eb.ref('excluded.weights'),
              updated_at: sql`now()`,
            })),
          )
          .execute();
      }
    },

    deleteDocument: (scope, documentId) => deleteVectorRows(db, scope, 'document_id', [documentId]),

    async deleteChunks(scope, chunkIds) {
      if (chunkIds.length > 0) await deleteVectorRows(db, scope, 'chunk_id', chunkIds);
    },

    searchDense: (scope, model, vector, limit) =>
      searchDenseRows(db, 'dense_vectors', NAME, scope, model, vector, limit, efSearch),
    searchLanguageDense: (scope, model, vector, limit) =>
      searchDenseRows(db, 'language_dense_vectors', NAME, scope, model, vector, limit, efSearch),
    scorePassageWindows: (scope, model, vector, chunkIds) => scoreWindowRows(db, NAME, scope, model, vector, chunkIds),

    async searchSparse(scope, sparse, limit) {
      if (sparse.indices.length === 0) return [];
      // IDF is computed at query time over the tenant's dataset, like Qdrant's IDF modifier, so a
      // term found in every chunk counts for little. The candidates (chunks holding a query term)
      // come from the GIN index, and a term's document frequency is counted among them (every chunk
      // that holds it is one): measured in bench:search, scanning the whole dataset once per query
      // term was most of a sparse search at 100,000 chunks. A candidate's weight for a query term is
      // found by array_position (a row's indices are distinct): unnesting every candidate's whole
      // vector to keep the few query terms took half of the search. Each candidate row is read once
      // and only its matches are kept: materializing the candidates' whole vectors spilled to disk
      // past work_mem and was read again per query term (EXPLAIN in docs/search.md).
      const terms = sql`${sql.val(sparse.indices)}::int[]`;
      const { rows } = await sql<{ chunk_id: string; score: number }>`
        WITH q AS (SELECT * FROM unnest(${terms}, ${sql.val(sparse.values)}::real[]) AS q(i, w)),
        matches AS MATERIALIZED (
          SELECT s.chunk_id, p.i, p.query_weight, s.weights[p.at] AS w FROM sparse_vectors s
           CROSS JOIN LATERAL (SELECT q.i, q.w AS query_weight, array_position(s.indices, q.i) AS at FROM q) p
           WHERE ${searchCondition(scope, 's')} AND s.indices && ${terms}
             AND p.at IS NOT NULL
        ),
        total AS (
          SELECT count(*)::float8 AS n FROM sparse_vectors WHERE ${searchCondition({ ...scope, filter: undefined })}
        ),
        df AS (SELECT i, count(*)::float8 AS df FROM matches GROUP BY i)
        SELECT m.chunk_id,
               sum(m.query_weight * m.w * ln(1 + ((SELECT n FROM total) - df.df + 0.5) / (df.df + 0.5))) AS score
          FROM matches m JOIN df ON df.i = m.i
         GROUP BY m.chunk_id
         ORDER BY score DESC, m.chunk_id
         LIMIT ${limit}`.execute(db);
      return rows.map((r) => ({ chunkId: r.chunk_id, score: Number(r.score) }));
    },

    // Filters join the documents table: there is no copy of the fields to keep.
    setDocumentFields: () => Promise.resolve(),

    async countForDocument(documentId) {
      let dense = 0;
      for (const table of DENSE_TABLES) {
        const row = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('document_id', '=', documentId)
          .executeTakeFirstOrThrow();
        dense += Number(row.n);
      }
      const sparse = await db
        .selectFrom('sparse_vectors')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('document_id', '=', documentId)
        .executeTakeFirstOrThrow();
      return { dense, sparse: sparse.n };
    },
  };
}
