import { sql, type Kysely } from 'kysely';

// Sources a dataset follows (docs/sources.md): a folder or an S3 prefix synced on a Temporal
// Schedule, and each source's ledger: one row per path it holds, with what the last sync saw of it
// (etag, mtime, size, content hash) and the document that holds its content.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE sources (
      id text PRIMARY KEY,
      user_id text NOT NULL,
      dataset_id text NOT NULL,
      kind text NOT NULL,
      config jsonb NOT NULL,
      sealed_secret text,
      every_seconds integer,
      cron text,
      paused boolean NOT NULL DEFAULT false,
      last_sync jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX sources_tenant_idx ON sources (user_id, dataset_id)`.execute(db);
  await sql`
    CREATE TABLE source_entries (
      source_id text NOT NULL REFERENCES sources (id) ON DELETE CASCADE,
      path text NOT NULL,
      document_id text,
      etag text,
      mtime timestamptz,
      size_bytes bigint,
      content_sha256 text,
      failure_code text,
      seen_sync_id text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (source_id, path)
    )`.execute(db);
  await sql`CREATE INDEX source_entries_document_idx ON source_entries (document_id)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE source_entries`.execute(db);
  await sql`DROP TABLE sources`.execute(db);
}
