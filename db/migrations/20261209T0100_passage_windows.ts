import { sql, type Kysely } from 'kysely';

/**
 * Passage windows (chunker/passageWindows.ts): a few vectors per chunk from the second dense
 * vector's model, each of a run of the chunk's sentences. Keyed by `window_id` (the chunk id and
 * the window's place in it), with the chunk, document and tenant on every row as in the other dense
 * tables, so deletes by document or chunk read the same columns. A search reads the windows of its
 * candidate chunks only (by chunk id) and scores them from their quantized bytes (generated as in
 * migration 20261207T0100), so the table needs no sign bits and no cells.
 * Documents ingested before have no windows until a rebuild embeds their chunks again.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE window_dense_vectors (
      window_id text PRIMARY KEY,
      chunk_id text NOT NULL,
      document_id text NOT NULL,
      user_id text NOT NULL,
      dataset_id text NOT NULL,
      model text NOT NULL,
      dimension integer NOT NULL,
      vector real[] NOT NULL,
      quantized bytea GENERATED ALWAYS AS (sluice_quantized(vector)) STORED,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`ALTER TABLE window_dense_vectors ALTER COLUMN quantized SET STORAGE MAIN`.execute(db);
  await sql`ALTER TABLE window_dense_vectors SET (parallel_workers = 0)`.execute(db);
  await sql`CREATE INDEX window_dense_vectors_chunk_idx ON window_dense_vectors (chunk_id)`.execute(db);
  await sql`CREATE INDEX window_dense_vectors_document_idx ON window_dense_vectors (document_id)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE window_dense_vectors`.execute(db);
}
