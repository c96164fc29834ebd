import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database';
import { assertVectorsFit, dimensionMismatch } from './dimensionMismatch';
import type { DenseRecord, EmbeddingModelRef, SearchHit, TenantScope } from './ports';

/** The tables that hold dense vectors: the first (the user's model) and the second (the chunk language's). */
export type DenseTable = 'dense_vectors' | 'language_dense_vectors';

const UPSERT_BATCH = 200;

/**
 * Upsert keyed by chunk id: a chunk has one row per table, so writing it with another model
 * replaces its row (a re-embedding's move). Postgres derives `sign_bits` from the vector.
 */
export async function upsertDenseRows(
  db: Kysely<Database>,
  table: DenseTable,
  storeName: string,
  scope: TenantScope,
  model: EmbeddingModelRef,
  records: DenseRecord[],
): Promise<void> {
  assertVectorsFit(model, storeName, records);
  for (let i = 0; i < records.length; i += UPSERT_BATCH) {
    const rows = records.slice(i, i + UPSERT_BATCH).map((r) => ({
      chunk_id: r.chunkId,
      document_id: r.documentId,
      user_id: scope.userId,
      dataset_id: scope.datasetId,
      model: model.model,
      dimension: model.dimension,
      vector: r.vector,
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

/** The query's signs, as Postgres's sluice_sign_bits writes a row's (a positive value is 1). */
function signBits(vector: number[]): string {
  let bits = '';
  for (const value of vector) bits += value > 0 ? '1' : '0';
  return bits;
}

/** array_send's binary layout of a one-dimensional real[]: a 20-byte header, then (length, value) per element. */
const ARRAY_HEADER_BYTES = 20;
const ELEMENT_BYTES = 8;

/** The cosine of the query (of `norm`) with a vector in array_send's layout; null for a zero vector. */
function cosineOfSent(sent: Buffer, query: number[], norm: number): number | null {
  let dot = 0;
  let squares = 0;
  for (let i = 0; i < query.length; i += 1) {
    const value = sent.readFloatBE(ARRAY_HEADER_BYTES + i * ELEMENT_BYTES + 4);
    dot += value * (query[i] as number);
    squares += value * value;
  }
  return squares === 0 || norm === 0 ? null : dot / (Math.sqrt(squares) * norm);
}

/**
 * The `limit` rows of the model closest to `vector` by cosine, best first. Two passes: the
 * `candidates` rows whose sign bits differ least from the query's (a native bit_count
 * over one index-narrowed scan of 48–512 bytes per row), then the exact cosine of those only, here
 * from their binary form (array_send): measured in bench:search, scoring in SQL (unnest per row)
 * cost ~0.1 ms per 512-d row, most of a search. A dataset with no more rows than
 * `candidates` of the model is scored whole, exactly.
 */
export async function searchDenseRows(
  db: Kysely<Database>,
  table: DenseTable,
  storeName: string,
  scope: TenantScope,
  model: EmbeddingModelRef,
  vector: number[],
  limit: number,
  candidates: number,
): Promise<SearchHit[]> {
  if (vector.length !== model.dimension) {
    throw dimensionMismatch(model, storeName, `the query vector has ${vector.length} dimensions`);
  }
  if (limit <= 0) return [];
  const bits = sql`${signBits(vector)}::bit varying`;
  const { rows } = await sql<{ chunk_id: string; sent: Buffer }>`
    WITH coarse AS (
      SELECT chunk_id FROM ${sql.table(table)}
       WHERE user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}
         AND model = ${model.model} AND dimension = ${model.dimension}
       ORDER BY bit_count(sign_bits # ${bits}), chunk_id
       LIMIT ${Math.max(limit, candidates)}
    )
    SELECT v.chunk_id, array_send(v.vector) AS sent
      FROM coarse JOIN ${sql.table(table)} v USING (chunk_id)`.execute(db);
  let squares = 0;
  for (const value of vector) squares += value * value;
  const norm = Math.sqrt(squares);
  const scored = rows.map((r) => ({ chunkId: r.chunk_id, score: cosineOfSent(r.sent, vector, norm) }));
  // As ORDER BY score DESC NULLS LAST, chunk_id did: a zero vector (no cosine) last.
  scored.sort(
    (a, b) =>
      (b.score ?? -Infinity) - (a.score ?? -Infinity) || (a.chunkId < b.chunkId ? -1 : a.chunkId > b.chunkId ? 1 : 0),
  );
  return scored.slice(0, limit).map((h) => ({ chunkId: h.chunkId, score: h.score ?? 0 }));
}
