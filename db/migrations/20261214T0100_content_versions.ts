import { sql, type Kysely } from 'kysely';

// A task that replaces its document's content (PUT /v1/documents/{id}/content, a source's sync)
// carries the new source on its own row: its stages read it, and only the success that switches
// the served chunk set moves it onto the document (db/repositories/servedIndex.ts). The source it
// replaced is recorded there, so the run's clean-up can remove that object. Null on every other task.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE parse_tasks
      ADD COLUMN source_object_key text,
      ADD COLUMN source_sha256 text,
      ADD COLUMN source_size_bytes bigint,
      ADD COLUMN source_file_name text,
      ADD COLUMN replaced_source_object_key text`.execute(db);
  // The second dense vector (and its windows) copied from an older generation, as vector_reused is for the first.
  await sql`ALTER TABLE chunks ADD COLUMN language_vector_reused boolean NOT NULL DEFAULT false`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE parse_tasks
      DROP COLUMN source_object_key, DROP COLUMN source_sha256, DROP COLUMN source_size_bytes,
      DROP COLUMN source_file_name, DROP COLUMN replaced_source_object_key`.execute(db);
  await sql`ALTER TABLE chunks DROP COLUMN language_vector_reused`.execute(db);
}
