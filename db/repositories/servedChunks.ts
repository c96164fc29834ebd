import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

export interface ServedChunk {
  chunk_id: string;
  document_id: string;
  dataset_id: string;
  section_path: string[];
  /** The text's first characters, enough to tell its language: search reads whole texts for its hits only. */
  text_sample: string;
  file_name: string;
  page_first: number | null;
  page_last: number | null;
}

/**
 * Which of these chunk ids search may return, with what a hit shows: chunks of the tenant's
 * documents that are not being deleted, in the chunk set each document serves. A rebuild's new set
 * (before its switch) and a retired old set (after it) are in the stores but not served: this one
 * join is what makes the switch atomic for search (docs/rebuild.md).
 */
export async function servedChunks(
  db: Kysely<Database>,
  scope: { userId: string; datasetIds: string[] },
  chunkIds: string[],
  sampleChars: number,
): Promise<ServedChunk[]> {
  if (chunkIds.length === 0) return [];
  return db
    .selectFrom('chunks')
    .innerJoin('documents', 'documents.id', 'chunks.document_id')
    .select([
      'chunks.chunk_id',
      'chunks.document_id',
      'chunks.dataset_id',
      'chunks.section_path',
      'chunks.page_first',
      'chunks.page_last',
      'documents.file_name',
    ])
    .select(sql<string>`left(chunks.text, ${sampleChars})`.as('text_sample'))
    .where('chunks.chunk_id', 'in', chunkIds)
    .where('chunks.user_id', '=', scope.userId)
    .where('chunks.dataset_id', 'in', scope.datasetIds)
    .where('documents.lifecycle', '=', 'ACTIVE')
    .whereRef('chunks.generation', '=', 'documents.index_generation')
    .execute();
}

/**
 * The texts of a page of hits, each cut at `maxChars` characters (`truncated` says so): what a hit
 * returns is bounded whatever a chunk holds. Scoped to the tenant like servedChunks.
 */
export async function hitTexts(
  db: Kysely<Database>,
  scope: { userId: string; datasetIds: string[] },
  chunkIds: string[],
  maxChars: number,
): Promise<Map<string, { text: string; truncated: boolean }>> {
  if (chunkIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('chunks')
    .select('chunk_id')
    .select(sql<string>`left(text, ${maxChars})`.as('text'))
    .select(sql<boolean>`length(text) > ${maxChars}`.as('truncated'))
    .where('chunk_id', 'in', chunkIds)
    .where('user_id', '=', scope.userId)
    .where('dataset_id', 'in', scope.datasetIds)
    .execute();
  return new Map(rows.map((r) => [r.chunk_id, { text: r.text, truncated: r.truncated }]));
}

/**
 * The parent passage of each given child (the section or window a child was cut from, stored as
 * answer context), its text cut at `maxChars`; a child without a parent is absent.
 */
export async function parentPassages(
  db: Kysely<Database>,
  scope: { userId: string; datasetIds: string[] },
  childIds: string[],
  maxChars: number,
): Promise<Map<string, { chunkId: string; text: string; truncated: boolean }>> {
  if (childIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('chunks as child')
    .innerJoin('chunks as parent', (join) =>
      join.onRef('parent.chunk_id', '=', 'child.parent_id').onRef('parent.document_id', '=', 'child.document_id'),
    )
    .select(['child.chunk_id as child_id', 'parent.chunk_id as parent_id'])
    .select(sql<string>`left(parent.text, ${maxChars})`.as('text'))
    .select(sql<boolean>`length(parent.text) > ${maxChars}`.as('truncated'))
    .where('child.chunk_id', 'in', childIds)
    .where('child.user_id', '=', scope.userId)
    .where('child.dataset_id', 'in', scope.datasetIds)
    .execute();
  return new Map(rows.map((r) => [r.child_id, { chunkId: r.parent_id, text: r.text, truncated: r.truncated }]));
}
