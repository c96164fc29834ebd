import path from 'node:path';
import type { ChunkerOptions } from '../../chunker/chunkMarkdown';
import type { ChunkDraft } from '../../contracts/chunk';
import type { CpuPool } from '../../cpuPool/pool';
import type { CorpusDoc } from './corpusDocs';
import { materialise } from './sources/docSource';

export { CORPUS, TUNED_SETS, type CorpusDoc, type Language } from './corpusDocs';

export interface ParsedDoc {
  doc: CorpusDoc;
  documentId: string;
  fileName: string;
  markdown: string;
  /** Child chunks only: what the pipeline embeds, indexes and retrieves. */
  children: ChunkDraft[];
}

/** Where the eval caches its pinned packages and the office files written from them. */
export function evalDocsDir(dataDir: string): string {
  return path.join(dataDir, 'eval-docs');
}

/** CLEANING and CHUNKING as the worker runs them: the same CPU pool tasks, the same options. */
export async function parseDoc(
  cpu: CpuPool,
  doc: CorpusDoc,
  chunking: ChunkerOptions,
  cacheDir: string,
): Promise<ParsedDoc> {
  const file = materialise(cacheDir, doc.source);
  const markdown = await cpu.parse(file, doc.type);
  const documentId = `eval-${doc.id}`;
  const children = (await cpu.chunk(documentId, markdown, chunking)).filter((c) => c.kind === 'child');
  return { doc, documentId, fileName: path.basename(file), markdown, children };
}
