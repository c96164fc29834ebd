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

/** The markers in `text`, in order, and the text without them (with the blank line each leaves). */
export function takeOcrMarks(text: string): { marks: OcrMark[]; text: string } {
  const marks: OcrMark[] = [];
  if (!text.includes('<!-- sluice:')) return { marks, text };
  const stripped = text.replace(MARKER, (_all, kind: string, page: string, confidence: string | undefined) => {
    marks.push({ page: Number(page), confidence: kind === 'ocr' ? Number(confidence ?? 0) : null });
    return '';
  });
  return { marks, text: marks.length === 0 ? text : stripped.trim().replace(/\n{3,}/g, '\n\n') };
}
