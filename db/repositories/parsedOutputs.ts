import type { Kysely, QueryCreator } from 'kysely';
import type { OcrPageReport } from '../../contracts/ocrPages';
import type { Database } from '../database';

/** What CLEANING's parse leaves on its task: the detected type, the markdown object, its time and OCR'd pages. */
export interface ParsedOutputs {
  detectedType: string;
  markdownObjectKey: string;
  parseMs: number;
  ocrPages?: OcrPageReport[];
}

/** The task columns a parse's outputs are written to. */
export function parsedTaskColumns(parsed: ParsedOutputs) {
  return {
    detected_type: parsed.detectedType,
    markdown_object_key: parsed.markdownObjectKey,
    parse_ms: parsed.parseMs,
    ocr_pages: parsed.ocrPages && parsed.ocrPages.length > 0 ? JSON.stringify(parsed.ocrPages) : null,
  };
}

/**
 * The statement that stamps a parse's detected type on the task's document: a CTE of whichever
 * statement records the parse on the task, so the two never disagree.
 */
export function documentTypeUpdate(q: QueryCreator<Database>, taskId: string, detectedType: string) {
  return q
    .updateTable('documents')
    .set({ file_type: detectedType, updated_at: new Date() })
    .where('id', '=', (eb) => eb.selectFrom('parse_tasks').select('document_id').where('task_id', '=', taskId));
}

/**
 * Records a parse on its task and document while CLEANING stays open (a run that enriches its
 * markdown: enrichMarkdown reads them back with findRecordedParse and records the SUCCESS), so
 * they reach the second activity through the database rather than the workflow's history.
 */
export async function recordParse(db: Kysely<Database>, taskId: string, parsed: ParsedOutputs): Promise<void> {
  await db
    .with('document_outputs', (q) => documentTypeUpdate(q, taskId, parsed.detectedType))
    .updateTable('parse_tasks')
    .set(parsedTaskColumns(parsed))
    .where('task_id', '=', taskId)
    .execute();
}

/** The parse recorded on the task, or undefined when its markdown was never recorded. */
export async function findRecordedParse(db: Kysely<Database>, taskId: string): Promise<ParsedOutputs | undefined> {
  const row = await db
    .selectFrom('parse_tasks')
    .select(['detected_type', 'markdown_object_key', 'parse_ms', 'ocr_pages'])
    .where('task_id', '=', taskId)
    .executeTakeFirst();
  if (!row?.markdown_object_key || row.detected_type === null) return undefined;
  return {
    detectedType: row.detected_type,
    markdownObjectKey: row.markdown_object_key,
    parseMs: row.parse_ms ?? 0,
    ...(row.ocr_pages && row.ocr_pages.length > 0 ? { ocrPages: row.ocr_pages } : {}),
  };
}
