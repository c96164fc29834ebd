import type { ChunkDraft } from '../../contracts/chunk';
import type { ChunkingParameters } from '../../contracts/chunkingPlan';
import { ChunkSink } from '../chunkSink';
import { splitSections } from '../splitSections';

/**
 * `one`: the whole document as one parent (a note, a letter, a short form: its parts mean little
 * alone), with children cut to childTokens, each led by the document's first heading if it has one.
 */
export function oneChunk(
  documentId: string,
  markdown: string,
  parameters: ChunkingParameters,
  maxChunks: number,
): ChunkDraft[] {
  const sink = new ChunkSink(documentId, maxChunks);
  const text = markdown.trim();
  const title = firstHeading(markdown);
  sink.addParent(title === null ? [] : [title], text, text, parameters.childTokens, parameters.overlapTokens);
  return sink.chunks;
}

function firstHeading(markdown: string): string | null {
  for (const section of splitSections(markdown)) {
    const title = section.path[section.path.length - 1];
    if (section.heading !== null && title) return title;
  }
  return null;
}
