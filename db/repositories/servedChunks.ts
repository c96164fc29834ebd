import type { Kysely } from 'kysely';
import type { Database } from '../database';

export interface ServedChunk {
  chunk_id: string;
  document_id: string;
  section_path: string[];
  text: string;
  file_name: string;
}

/**
 * Which of these chunk ids search may return, with what a hit shows: chunks of the tenant's
 * documents that are not being deleted, in the chunk set each document serves. A rebuild's new set
 * (before its switch) and a retired old set (after it) are in the stores but not served: this one
 * join is what makes the switch atomic for search (docs/rebuild.md).
 */
export async function servedChunks(
  db: Kysely<Database>,
  scope: { userId: string; datasetId: string },
  chunkIds: string[],
): Promise<ServedChunk[]> {
  if (chunkIds.length === 0) return [];
  return db
    .selectFrom('chunks')
    .innerJoin('documents', 'documents.id', 'chunks.document_id')
    .select(['chunks.chunk_id', 'chunks.document_id', 'chunks.section_path', 'chunks.text', 'documents.file_name'])
    .where('chunks.chunk_id', 'in', chunkIds)
    .where('chunks.user_id', '=', scope.userId)
    .where('chunks.dataset_id', '=', scope.datasetId)
    .where('documents.lifecycle', '=', 'ACTIVE')
    .whereRef('chunks.generation', '=', 'documents.index_generation')
    .execute();
}
