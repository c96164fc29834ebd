import { sql, type Kysely } from 'kysely';
import { ensureHnswIndex, type DenseTable } from '../pgvector';

/**
 * The dense vectors move to pgvector (docs/search.md, "The dense lists on Postgres"): each table's
 * `real[]` column becomes a `vector` in place, so every vector is kept and nothing is embedded
 * again, and each model and dimension already stored gets its HNSW index. What the hand-made index
 * needed goes: the sign bits, the quantized bytes, the cells and their centroids, and the
 * functions that generated them.
 */
const DENSE: readonly DenseTable[] = ['dense_vectors', 'language_dense_vectors'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS vector`.execute(db);
  for (const table of DENSE) {
    // The covering index names the bits and the cell: it goes with them, and the tenant index returns.
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN sign_bits, DROP COLUMN quantized, DROP COLUMN cell`.execute(
      db,
    );
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN vector TYPE vector USING vector::vector`.execute(db);
    await sql`CREATE INDEX IF NOT EXISTS ${sql.id(`${table}_tenant_model_idx`)}
                ON ${sql.table(table)} (user_id, dataset_id, model, dimension)`.execute(db);
  }
  await sql`ALTER TABLE window_dense_vectors DROP COLUMN quantized`.execute(db);
  await sql`ALTER TABLE window_dense_vectors ALTER COLUMN vector TYPE vector USING vector::vector`.execute(db);
  await sql`DROP TABLE dense_cells`.execute(db);
  await sql`DROP FUNCTION sluice_sign_bits(real[])`.execute(db);
  await sql`DROP FUNCTION sluice_quantized(real[])`.execute(db);
  for (const table of DENSE) {
    const { rows } = await sql<{ model: string; dimension: number }>`
      SELECT DISTINCT model, dimension FROM ${sql.table(table)}`.execute(db);
    for (const model of rows) await ensureHnswIndex(db, new Set(), table, model);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION sluice_sign_bits(v real[]) RETURNS bit varying
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i)::bit varying
        FROM unnest(v) WITH ORDINALITY AS t(x, i)
    $$`.execute(db);
  await sql`
    CREATE FUNCTION sluice_quantized(v real[]) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT decode(string_agg(lpad(to_hex(coalesce(round(x / nullif(s.m, 0) * 127)::int, 0) + 128), 2, '0'),
                               '' ORDER BY i), 'hex')
        FROM unnest(v) WITH ORDINALITY AS t(x, i), (SELECT max(abs(y)) AS m FROM unnest(v) AS y) AS s
    $$`.execute(db);
  await sql`
    CREATE TABLE dense_cells (
      dense_table text NOT NULL,
      user_id text NOT NULL,
      dataset_id text NOT NULL,
      model text NOT NULL,
      dimension integer NOT NULL,
      generation integer NOT NULL,
      cell_count integer NOT NULL,
      centroids bytea NOT NULL,
      trained_rows integer NOT NULL,
      trained_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (dense_table, user_id, dataset_id, model, dimension)
    )`.execute(db);
  for (const table of DENSE) {
    const { rows } = await sql<{ indexname: string }>`
      SELECT indexname FROM pg_indexes WHERE tablename = ${table} AND indexname LIKE ${`${table}_hnsw_%`}`.execute(db);
    for (const { indexname } of rows) await sql`DROP INDEX ${sql.id(indexname)}`.execute(db);
    await sql`DROP INDEX ${sql.id(`${table}_tenant_model_idx`)}`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN vector TYPE real[] USING vector::real[]`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)}
                ADD COLUMN sign_bits bit varying GENERATED ALWAYS AS (sluice_sign_bits(vector)) STORED,
                ADD COLUMN quantized bytea GENERATED ALWAYS AS (sluice_quantized(vector)) STORED,
                ADD COLUMN cell integer NOT NULL DEFAULT -1`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN quantized SET STORAGE MAIN`.execute(db);
    await sql`CREATE INDEX ${sql.id(`${table}_tenant_model_idx`)}
                ON ${sql.table(table)} (user_id, dataset_id, model, dimension, cell)
                INCLUDE (sign_bits, chunk_id)`.execute(db);
  }
  await sql`ALTER TABLE window_dense_vectors ALTER COLUMN vector TYPE real[] USING vector::real[]`.execute(db);
  await sql`ALTER TABLE window_dense_vectors
              ADD COLUMN quantized bytea GENERATED ALWAYS AS (sluice_quantized(vector)) STORED`.execute(db);
  await sql`ALTER TABLE window_dense_vectors ALTER COLUMN quantized SET STORAGE MAIN`.execute(db);
}
