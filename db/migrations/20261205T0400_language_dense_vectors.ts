import { sql, type Kysely } from 'kysely';

/**
 * The second dense vector: each chunk's vector from the model of its language (bge-small
 * en or zh), beside the first one (the user's model), checkpointed per chunk like the first.
 *
 * And a layout for searching either table fast on the local profile: each row keeps the signs of
 * its vector as a bit string (a generated column, so every writer and every existing row has it).
 * A search first ranks the dataset by the Hamming distance of those bits to the query's, which
 * Postgres computes natively (bit_count of an xor), then scores only the best few hundred exactly:
 * measured in `npm run bench:search`, where the exact scan of 100,000 vectors took seconds.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION sluice_sign_bits(v real[]) RETURNS bit varying
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
      SELECT string_agg(CASE WHEN x > 0 THEN '1' ELSE '0' END, '' ORDER BY i)::bit varying
        FROM unnest(v) WITH ORDINALITY AS t(x, i)
    $$`.execute(db);
  await sql`ALTER TABLE dense_vectors
              ADD COLUMN sign_bits bit varying GENERATED ALWAYS AS (sluice_sign_bits(vector)) STORED`.execute(db);

  await db.schema
    .createTable('language_dense_vectors')
    .addColumn('chunk_id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('dataset_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('dimension', 'integer', (c) => c.notNull())
    .addColumn('vector', sql`real[]`, (c) => c.notNull())
    .addColumn('sign_bits', sql`bit varying`, (c) => c.generatedAlwaysAs(sql`sluice_sign_bits(vector)`).stored())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('language_dense_vectors_tenant_model_idx')
    .on('language_dense_vectors')
    .columns(['user_id', 'dataset_id', 'model', 'dimension'])
    .execute();
  await db.schema
    .createIndex('language_dense_vectors_document_idx')
    .on('language_dense_vectors')
    .column('document_id')
    .execute();

  await db.schema
    .alterTable('chunks')
    .addColumn('language_dense_status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('PENDING')
        .check(sql`language_dense_status IN ('PENDING', 'PROCESSING', 'SUCCESS', 'FAILED')`),
    )
    .addColumn('language_embedding_model', 'text')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('chunks')
    .dropColumn('language_dense_status')
    .dropColumn('language_embedding_model')
    .execute();
  await db.schema.dropTable('language_dense_vectors').execute();
  await sql`ALTER TABLE dense_vectors DROP COLUMN sign_bits`.execute(db);
  await sql`DROP FUNCTION sluice_sign_bits(real[])`.execute(db);
}
