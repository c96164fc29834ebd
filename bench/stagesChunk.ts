import { MarkdownTextSplitter, RecursiveCharacterTextSplitter } from '@langchain/textsplitters';
import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS } from '../chunker/chunkMarkdown';

/**
 * LangChain's splitters count characters: 1,600 characters with 240 of overlap is about what
 * sluice's 400-token children with 60 of overlap hold (~4 characters per estimated token).
 */
export const LANGCHAIN_SPLIT = { chunkSize: 1600, chunkOverlap: 240 };

export interface ChunkStats {
  chunks: number;
  /** sluice: the children (what is embedded); LangChain.js: every chunk. */
  retrievable: number;
  retrievableChars: number[];
}

export type Splitter = 'sluice' | 'recursive' | 'markdown';

/** Chunks each document on its own, as an ingestion pipeline does. */
export async function chunkDocuments(splitter: Splitter, documents: readonly string[]): Promise<ChunkStats> {
  const stats: ChunkStats = { chunks: 0, retrievable: 0, retrievableChars: [] };
  if (splitter === 'sluice') {
    for (const [i, markdown] of documents.entries()) {
      for (const chunk of chunkMarkdown(`doc-${i}`, markdown, DEFAULT_CHUNKER_OPTIONS)) {
        stats.chunks++;
        if (chunk.kind !== 'child') continue;
        stats.retrievable++;
        stats.retrievableChars.push(chunk.charCount);
      }
    }
    return stats;
  }
  const langchain =
    splitter === 'recursive'
      ? new RecursiveCharacterTextSplitter(LANGCHAIN_SPLIT)
      : new MarkdownTextSplitter(LANGCHAIN_SPLIT);
  for (const markdown of documents) {
    for (const text of await langchain.splitText(markdown)) {
      stats.chunks++;
      stats.retrievable++;
      stats.retrievableChars.push(text.length);
    }
  }
  return stats;
}
