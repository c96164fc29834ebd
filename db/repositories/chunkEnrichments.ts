import type { Kysely } from 'kysely';
import type { Database } from '../database';

export interface ChunkEnrichment {
  chunkId: string;
  keywords: string[];
  questions: string[];
}

/** The chunks (of these ids) a chat model has already enriched: a retry skips them. */
export async function enrichedChunkIds(db: Kysely<Database>, chunkIds: string[]): Promise<Set<string>> {
  if (chunkIds.length === 0) return new Set();
  const rows = await db.selectFrom('chunk_enrichments').select('chunk_id').where('chunk_id', 'in', chunkIds).execute();
  return new Set(rows.map((r) => r.chunk_id));
}

/** One batch's results, as the batch's checkpoint; writing a chunk again replaces its row. */
export async function saveChunkEnrichments(
  db: Kysely<Database>,
  documentId: string,
  model: string,
  enrichments: ChunkEnrichment[],
): Promise<void> {
  if (enrichments.length === 0) return;
  await db
    .insertInto('chunk_enrichments')
    .values(
      enrichments.map((e) => ({
        chunk_id: e.chunkId,
        document_id: documentId,
        keywords: e.keywords,
        questions: e.questions,
        model,
        created_at: new Date(),
      })),
    )
    .onConflict((oc) =>
      oc.column('chunk_id').doUpdateSet((eb) => ({
        keywords: eb.ref('excluded.keywords'),
        questions: eb.ref('excluded.questions'),
        model: eb.ref('excluded.model'),
      })),
    )
    .execute();
}

/** The enrichments of a document's chunks, for the token plan. */
export async function listChunkEnrichments(
  db: Kysely<Database>,
  documentId: string,
): Promise<Map<string, ChunkEnrichment>> {
  const rows = await db
    .selectFrom('chunk_enrichments')
    .select(['chunk_id', 'keywords', 'questions'])
    .where('document_id', '=', documentId)
    .execute();
  return new Map(rows.map((r) => [r.chunk_id, { chunkId: r.chunk_id, keywords: r.keywords, questions: r.questions }]));
}
