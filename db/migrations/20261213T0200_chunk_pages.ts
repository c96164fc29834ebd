import { sql, type Kysely } from 'kysely';

// The first and last page (PDF) a chunk's text spans, so a hit can be cited (chunker/chunkPages.ts).
// Null for chunks of documents without pages, and for chunks written before pages were kept.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE chunks ADD COLUMN page_first integer, ADD COLUMN page_last integer`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE chunks DROP COLUMN page_first, DROP COLUMN page_last`.execute(db);
}
