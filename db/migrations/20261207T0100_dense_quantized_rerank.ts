import { sql, type Kysely } from 'kysely';

/**
 * Search speed. A dense search ranks a dataset by sign bits, then scores the best few
 * hundred rows (stores/postgresDenseTable.ts). Measured in `npm run bench:search` on 100,000
 * chunks: reading those rows' float vectors (out of line in TOAST, two chunks each, then
 * array_send of 512 floats) was a third of a dense search. So each row also keeps its vector
 * quantized to one signed byte per dimension, scaled by its largest magnitude (512 bytes, kept
 * inline), which the search scores first; only the best few are read as floats again.
 *
 * And the sign-bit pass reads an index that carries the bits and the chunk id, so it scans a
 * narrow index (an index-only scan) rather than heap rows that the quantized bytes widen. The
 * tenant index it replaces is its prefix, so every other query keeps its plan.
 */
const TABLES = ['dense_vectors', 'language_dense_vectors'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The byte is round(127 x / max|x|) + 128: 1..255, and 128 (zero) throughout for a zero vector.
  await sql`
    CREATE FUNCTION sluice_quantized(v real[]) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT decode(string_agg(lpad(to_hex(coalesce(round(x / nullif(s.m, 0) * 127)::int, 0) + 128), 2, '0'),
                               '' ORDER BY i), 'hex')
        FROM unnest(v) WITH ORDINALITY AS t(x, i), (SELECT max(abs(y)) AS m FROM unnest(v) AS y) AS s
    $$`.execute(db);
  for (const table of TABLES) {
    await sql`ALTER TABLE ${sql.table(table)}
                ADD COLUMN quantized bytea GENERATED ALWAYS AS (sluice_quantized(vector)) STORED`.execute(db);
    // MAIN: inline unless the row cannot fit otherwise (the float vector goes out of line first).
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN quantized SET STORAGE MAIN`.execute(db);
    await sql`DROP INDEX ${sql.id(`${table}_tenant_model_idx`)}`.execute(db);
    await sql`CREATE INDEX ${sql.id(`${table}_tenant_model_idx`)}
                ON ${sql.table(table)} (user_id, dataset_id, model, dimension) INCLUDE (sign_bits, chunk_id)`.execute(
      db,
    );
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`DROP INDEX ${sql.id(`${table}_tenant_model_idx`)}`.execute(db);
    await sql`CREATE INDEX ${sql.id(`${table}_tenant_model_idx`)}
                ON ${sql.table(table)} (user_id, dataset_id, model, dimension)`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN quantized`.execute(db);
  }
  await sql`DROP FUNCTION sluice_quantized(real[])`.execute(db);
}
