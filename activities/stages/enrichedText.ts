import type { Kysely } from 'kysely';
import type { Database } from '../../db/database';
import { listChunkEnrichments } from '../../db/repositories/chunkEnrichments';
import type { ChunkText } from '../../db/repositories/chunks';

/**
 * What PRETOKENIZE tokenizes for a chunk: its text, and the keywords and questions a chat model
 * wrote for it (activities/stages/enrichChunks.ts), so they are indexed with the chunk and weigh in its
 * sparse vector. The chunk's own text, as shown and embedded, is unchanged.
 */
export async function withEnrichment<C extends Pick<ChunkText, 'chunk_id' | 'text'>>(
  db: Kysely<Database>,
  documentId: string,
  chunks: C[],
): Promise<Pick<ChunkText, 'chunk_id' | 'text'>[]> {
  const enrichments = await listChunkEnrichments(db, documentId);
  if (enrichments.size === 0) return chunks;
  return chunks.map((chunk) => {
    const extra = enrichments.get(chunk.chunk_id);
    if (!extra) return chunk;
    return { chunk_id: chunk.chunk_id, text: [chunk.text, ...extra.keywords, ...extra.questions].join('\n') };
  });
}
