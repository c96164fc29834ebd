import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database';
import { assertVectorsFit, dimensionMismatch } from './dimensionMismatch';
import type { TenantScope, VectorStore } from './ports';

const UPSERT_BATCH = 200;

function* inBatches<T>(records: T[]): Generator<T[]> {
  for (let i = 0; i < records.length; i += UPSERT_BATCH) yield records.slice(i, i + UPSERT_BATCH);
}

/** The columns every vector row carries: its chunk, and the document and tenant it belongs to. */
function ownerColumns(scope: TenantScope, r: { chunkId: string; documentId: string }) {
  return { chunk_id: r.chunkId, document_id: r.documentId, user_id: scope.userId, dataset_id: scope.datasetId };
}

const NAME = 'Postgres (dense_vectors)';

/**
 * The embedded-default vector store: dense and sparse vectors in Postgres, searched exactly.
 * Fine for one machine and tens of thousands of chunks; Qdrant is the production adapter.
 * A dense row is keyed by chunk and carries its model and dimension: writing a chunk with
 * another model replaces its row (the move of a re-embedding), and a search reads one model's rows.
 */
export function createPostgresVectorStore(db: Kysely<Database>): VectorStore {
  return {
    name: NAME,

    async upsertDense(scope, model, records) {
      assertVectorsFit(model, NAME, records);
      for (const batch of inBatches(records)) {
        const rows = batch.map((r) => ({
          ...ownerColumns(scope, r),
          model: model.model,
          dimension: model.dimension,
          vector: r.vector,
        }));
        await db
          .insertInto('dense_vectors')
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
    },

    async copyDense(scope, model, copies) {
      const copied: string[] = [];
      for (const batch of inBatches(copies)) {
        // One statement per batch: the vectors never leave Postgres.
        const { rows } = await sql<{ chunk_id: string }>`
          INSERT INTO dense_vectors (chunk_id, document_id, user_id, dataset_id, model, dimension, vector)
          SELECT c.to_id, c.document_id, v.user_id, v.dataset_id, v.model, v.dimension, v.vector
            FROM unnest(${batch.map((c) => c.fromChunkId)}::text[], ${batch.map((c) => c.toChunkId)}::text[],
                        ${batch.map((c) => c.documentId)}::text[]) AS c(from_id, to_id, document_id)
            JOIN dense_vectors v ON v.chunk_id = c.from_id
           WHERE v.user_id = ${scope.userId} AND v.dataset_id = ${scope.datasetId}
             AND v.model = ${model.model} AND v.dimension = ${model.dimension}
          ON CONFLICT (chunk_id) DO UPDATE SET vector = excluded.vector, model = excluded.model,
                                               dimension = excluded.dimension, updated_at = now()
          RETURNING chunk_id`.execute(db);
        copied.push(...rows.map((r) => r.chunk_id));
      }
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

    async deleteDocument(scope, documentId) {
      for (const table of ['dense_vectors', 'sparse_vectors'] as const) {
        await db
          .deleteFrom(table)
          .where('document_id', '=', documentId)
          .where('user_id', '=', scope.userId)
          .where('dataset_id', '=', scope.datasetId)
          .execute();
      }
    },

    async deleteChunks(scope, chunkIds) {
      if (chunkIds.length === 0) return;
      for (const table of ['dense_vectors', 'sparse_vectors'] as const) {
        await db
          .deleteFrom(table)
          .where('chunk_id', 'in', chunkIds)
          .where('user_id', '=', scope.userId)
          .where('dataset_id', '=', scope.datasetId)
          .execute();
      }
    },

    async searchDense(scope, model, vector, limit) {
      if (vector.length !== model.dimension) {
        throw dimensionMismatch(model, NAME, `the query vector has ${vector.length} dimensions`);
      }
      const query = sql`${sql.val(vector)}::real[]`;
      const { rows } = await sql<{ chunk_id: string; score: number }>`
        SELECT chunk_id,
               (SELECT sum(a * b) / nullif(sqrt(sum(a * a)) * sqrt(sum(b * b)), 0)
                  FROM unnest(vector, ${query}) AS t(a, b)) AS score
          FROM dense_vectors
         WHERE user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}
           AND model = ${model.model} AND dimension = ${model.dimension}
         ORDER BY score DESC NULLS LAST, chunk_id
         LIMIT ${limit}`.execute(db);
      return rows.map((r) => ({ chunkId: r.chunk_id, score: Number(r.score) }));
    },

    async searchSparse(scope, sparse, limit) {
      if (sparse.indices.length === 0) return [];
      // IDF is computed at query time over the tenant's dataset, like Qdrant's IDF modifier, so a
      // term found in every chunk counts for little.
      const { rows } = await sql<{ chunk_id: string; score: number }>`
        WITH scoped AS (
          SELECT chunk_id, indices, weights FROM sparse_vectors
           WHERE user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}
        ), total AS (SELECT count(*)::float8 AS n FROM scoped),
        q AS (SELECT * FROM unnest(${sql.val(sparse.indices)}::int[], ${sql.val(sparse.values)}::real[]) AS q(i, w)),
        df AS (
          SELECT q.i, count(s.chunk_id)::float8 AS df FROM q
            LEFT JOIN scoped s ON s.indices @> ARRAY[q.i]
           GROUP BY q.i
        )
        SELECT s.chunk_id,
               sum(q.w * d.w * ln(1 + ((SELECT n FROM total) - df.df + 0.5) / (df.df + 0.5))) AS score
          FROM scoped s
          CROSS JOIN LATERAL unnest(s.indices, s.weights) AS d(i, w)
          JOIN q ON q.i = d.i
          JOIN df ON df.i = d.i
         WHERE s.indices && ${sql.val(sparse.indices)}::int[]
         GROUP BY s.chunk_id
         ORDER BY score DESC, chunk_id
         LIMIT ${limit}`.execute(db);
      return rows.map((r) => ({ chunkId: r.chunk_id, score: Number(r.score) }));
    },

    async countForDocument(documentId) {
      const dense = await db
        .selectFrom('dense_vectors')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('document_id', '=', documentId)
        .executeTakeFirstOrThrow();
      const sparse = await db
        .selectFrom('sparse_vectors')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('document_id', '=', documentId)
        .executeTakeFirstOrThrow();
      return { dense: dense.n, sparse: sparse.n };
    },
  };
}
