import { sql, type Kysely } from 'kysely';
import type { ChunkRow, Database } from '../database';
import type { ChunkSet } from './chunks';

/** A chunk VECTORIZING reads when the second dense vector is on: its text and both checkpoints. */
export type ChunkTextWithDenseStatuses = Pick<
  ChunkRow,
  'chunk_id' | 'chunk_index' | 'text' | 'dense_status' | 'language_dense_status'
>;

/**
 * The next page of active chunks after a chunk index that lack either dense vector: VECTORIZING's
 * pending set when it writes both, so a chunk embedded before the second vector was turned on
 * gets that one alone.
 */
export async function listChunksLackingADenseVector(
  db: Kysely<Database>,
  set: ChunkSet,
  afterIndex: number,
  limit: number,
): Promise<ChunkTextWithDenseStatuses[]> {
  return db
    .selectFrom('chunks')
    .select(['chunk_id', 'chunk_index', 'text', 'dense_status', 'language_dense_status'])
    .where('document_id', '=', set.documentId)
    .where('generation', '=', set.generation)
    .where('kind', '=', 'child')
    .where((eb) => eb.or([eb('dense_status', '!=', 'SUCCESS'), eb('language_dense_status', '!=', 'SUCCESS')]))
    .where('chunk_index', '>', afterIndex)
    .orderBy('chunk_index')
    .limit(limit)
    .execute();
}

/** The second dense vector's SUCCESS with the model that made it (never from SUCCESS, like the first's). */
export async function markLanguageDenseEmbedded(
  db: Kysely<Database>,
  chunkIds: string[],
  model: string,
): Promise<number> {
  if (chunkIds.length === 0) return 0;
  const result = await db
    .updateTable('chunks')
    .set({ language_dense_status: 'SUCCESS', language_embedding_model: model })
    .where('chunk_id', '=', sql<string>`ANY(${chunkIds}::text[])`)
    .where('language_dense_status', '!=', 'SUCCESS')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
