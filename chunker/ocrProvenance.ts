import type { ChunkDraft } from '../contracts/chunk';
import { takeOcrMarks } from '../contracts/ocrMarkers';
import { countTokens } from '../tokenizer/countTokens';

/**
 * Reads the OCR markers (contracts/ocrMarkers.ts) out of the chunks of a document that has them:
 * each chunk's text loses its markers, and a chunk records the lowest confidence of the OCR'd
 * pages its text comes from: the page in force where it starts (the last marker of the children
 * before it, in document order) and any page that starts inside it with text after the marker. A parent takes the lowest of its
 * children. A document without markers is returned untouched, at the cost of one substring search
 * per chunk. Counts are retaken only for chunks that lost a marker.
 */
export function applyOcrProvenance(drafts: ChunkDraft[]): ChunkDraft[] {
  if (!drafts.some((draft) => draft.text.includes('<!-- sluice:'))) return drafts;
  let inForce: number | null = null;
  const lowestOfParent = new Map<string, number>();
  const read = drafts.map((draft) => {
    const { marks, textBeforeFirst, text } = takeOcrMarks(draft.text);
    const stripped =
      marks.length === 0 ? draft : { ...draft, text, charCount: text.length, tokenCount: countTokens(text) };
    if (draft.kind === 'parent') return stripped;
    // Only pages with some of the chunk's text count: a marker at the chunk's end starts the next one.
    let lowest = textBeforeFirst ? inForce : null;
    for (const mark of marks) {
      if (mark.confidence !== null && mark.followedByText) lowest = Math.min(lowest ?? 1, mark.confidence);
      inForce = mark.confidence;
    }
    if (lowest !== null && draft.parentId !== null) {
      lowestOfParent.set(draft.parentId, Math.min(lowest, lowestOfParent.get(draft.parentId) ?? 1));
    }
    return { ...stripped, ocrConfidence: lowest };
  });
  return read.map((draft) =>
    draft.kind === 'parent' ? { ...draft, ocrConfidence: lowestOfParent.get(draft.chunkId) ?? null } : draft,
  );
}
