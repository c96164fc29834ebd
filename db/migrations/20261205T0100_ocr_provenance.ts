import type { Kysely } from 'kysely';

// OCR: a task records the pages its parse OCR'd (page, reason, confidence, characters;
// null when none were), which `sluice status` shows; a chunk whose text came from OCR carries the
// lowest confidence of the OCR'd pages it spans (null: read from a text layer).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('parse_tasks').addColumn('ocr_pages', 'jsonb').execute();
  await db.schema.alterTable('chunks').addColumn('ocr_confidence', 'real').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chunks').dropColumn('ocr_confidence').execute();
  await db.schema.alterTable('parse_tasks').dropColumn('ocr_pages').execute();
}
