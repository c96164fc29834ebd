import { sql, type Kysely } from 'kysely';

/**
 * Search speed: an inverted-file index for the Postgres dense search. Measured in
 * `npm run bench:search` on 100,000 chunks, the sign-bit pass over every row of a model was most
 * of a dense search (54 ms of a 60 ms query), and it grows with the dataset. Once a model has
 * enough rows in a dataset, its vectors are clustered into cells (spherical k-means, centroids in
 * dense_cells) and each row records its cell; a search reads only the rows of the cells nearest its
 * query, plus every row not yet assigned (cell -1). The covering index gains the cell as its last
 * key, so that read stays an index-only scan of a few cells' entries; its prefix still serves
 * every query that names no cell.
 */
const TABLES = ['dense_vectors', 'language_dense_vectors'] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
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
  for (const table of TABLES) {
    // A constant default: no table rewrite; every existing row is unassigned until a training.
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN cell integer NOT NULL DEFAULT -1`.execute(db);
    await sql`DROP INDEX ${sql.id(`${table}_tenant_model_idx`)}`.execute(db);
    await sql`CREATE INDEX ${sql.id(`${table}_tenant_model_idx`)}
                ON ${sql.table(table)} (user_id, dataset_id, model, dimension, cell)
                INCLUDE (sign_bits, chunk_id)`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`DROP INDEX ${sql.id(`${table}_tenant_model_idx`)}`.execute(db);
    await sql`CREATE INDEX ${sql.id(`${table}_tenant_model_idx`)}
                ON ${sql.table(table)} (user_id, dataset_id, model, dimension) INCLUDE (sign_bits, chunk_id)`.execute(
      db,
    );
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN cell`.execute(db);
  }
  await sql`DROP TABLE dense_cells`.execute(db);
}
