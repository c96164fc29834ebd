import { sql, type Kysely } from 'kysely';

// A document's own metadata and the system fields search filters by (contracts/searchFilter.ts).
// `metadata_version` counts its changes, so a copy in a search index only ever replaces an older
// one; `metadata_updated_at` is the system field updatedAt. The size check backs the API's bound
// (contracts/documentMetadata.ts) for any other writer.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE documents
              ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb
                CHECK (jsonb_typeof(metadata) = 'object' AND octet_length(metadata::text) <= 16384),
              ADD COLUMN metadata_version integer NOT NULL DEFAULT 0,
              ADD COLUMN metadata_updated_at timestamptz NOT NULL DEFAULT now(),
              ADD COLUMN page_count integer,
              ADD COLUMN language text,
              ADD COLUMN source text NOT NULL DEFAULT 'upload'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE documents
              DROP COLUMN metadata, DROP COLUMN metadata_version, DROP COLUMN metadata_updated_at,
              DROP COLUMN page_count, DROP COLUMN language, DROP COLUMN source`.execute(db);
}
