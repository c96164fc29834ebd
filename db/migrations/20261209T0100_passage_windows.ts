import { sql, type Kysely } from 'kysely';

/**
 * Passage windows (chunker/passageWindows.ts): a few vectors per chunk from the second dense
 * vector's model, each of a run of the chunk's sentences. Keyed by `window_id` (the chunk id and
 * the window's place in it), with the chunk, document and tenant on every row as in the other dense
 * tables, so deletes by document or chunk and every search filter read the same columns. Sign bits,
 * quantized bytes and cells as the other dense tables have them (migrations 20261205T0400,
 * 20261207T0100, 20261208T0100), so the same three-pass search and inverted-file index serve it.
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
      sign_bits bit varying GENERATED ALWAYS AS (sluice_sign_bits(vector)) STORED,
      quantized bytea GENERATED ALWAYS AS (sluice_quantized(vector)) STORED,
      cell integer NOT NULL DEFAULT -1,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`ALTER TABLE window_dense_vectors ALTER COLUMN quantized SET STORAGE MAIN`.execute(db);
  await sql`ALTER TABLE window_dense_vectors SET (parallel_workers = 0)`.execute(db);
  await sql`CREATE INDEX window_dense_vectors_tenant_model_idx
              ON window_dense_vectors (user_id, dataset_id, model, dimension, cell)
              INCLUDE (sign_bits, window_id)`.execute(db);
  await sql`CREATE INDEX window_dense_vectors_document_idx ON window_dense_vectors (document_id)`.execute(db);
  await sql`CREATE INDEX window_dense_vectors_chunk_idx ON window_dense_vectors (chunk_id)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE window_dense_vectors`.execute(db);
}
