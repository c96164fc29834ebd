/**
 * How the markdown of a document says which of its text came from OCR: an HTML comment (invisible
 * where markdown is rendered) before each OCR'd page, with the page's confidence, and one before
 * the first page read from its text layer again. Written by the parsers, read back and removed
 * by chunking (chunker/ocrProvenance.ts), so chunk texts never carry them. Only a document
 * with OCR'd pages has any.
 */
export interface OcrMark {
  page: number;
  /** 0..1 for an OCR'd page; null for a page read from its text layer. */
  confidence: number | null;
}

export function ocrMarker(page: number, confidence: number): string {
  return `<!-- sluice:ocr page=${page} confidence=${confidence.toFixed(3)} -->`;
}

export function textLayerMarker(page: number): string {
  return `<!-- sluice:text page=${page} -->`;
}

/** Fixed shape, bounded digit runs: linear, whatever surrounds it. */
const MARKER = /<!-- sluice:(ocr|text) page=(\d{1,7})(?: confidence=([01]\.\d{3}))? -->/g;

/**
 * The markers in `text`, in order, each with whether text follows it before the next marker or
 * the end (a marker closing a chunk says nothing about that chunk's text), whether text precedes
 * the first one, and the text without them (with the blank lines each leaves).
 */
export function takeOcrMarks(text: string): {
  marks: (OcrMark & { followedByText: boolean })[];
  textBeforeFirst: boolean;
  text: string;
} {
  const marks: (OcrMark & { followedByText: boolean })[] = [];
  if (!text.includes('<!-- sluice:')) return { marks, textBeforeFirst: text.trim() !== '', text };
  const pieces: string[] = [];
  let textBeforeFirst = false;
  let last = 0;
  for (const match of text.matchAll(MARKER)) {
    const between = text.slice(last, match.index);
    const previous = marks[marks.length - 1];
    if (previous) previous.followedByText = between.trim() !== '';
    else textBeforeFirst = between.trim() !== '';
    pieces.push(between);
    const [, kind, page, confidence] = match;
    marks.push({
      page: Number(page),
      confidence: kind === 'ocr' ? Number(confidence ?? 0) : null,
      followedByText: false,
    });
    last = match.index + match[0].length;
  }
  const tail = text.slice(last);
  const final = marks[marks.length - 1];
  if (final) final.followedByText = tail.trim() !== '';
  else textBeforeFirst = tail.trim() !== '';
  pieces.push(tail);
  return {
    marks,
    textBeforeFirst,
    text:
      marks.length === 0
        ? text
        : pieces
            .join('')
            .trim()
            .replace(/\n{3,}/g, '\n\n'),
  };
}
