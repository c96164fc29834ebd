import type { PdfLine } from './pdfLine';

/** A paragraph gap is clearly larger than the line pitch (about 1.2× the font size). */
const PARAGRAPH_GAP_RATIO = 1.45;
/** A first-line indent of at least this many font sizes starts a paragraph. */
const INDENT_RATIO = 0.9;
/** A line ending this share of the measure short of the right edge ends its list item. */
const SHORT_LINE_SHARE = 0.2;
const SENTENCE_END = /[.!?:;。！？：；]["'”’)]*$/;
const CJK_EDGE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/**
 * TeX hyphenates at line ends; CJK lines join without a space, everything else with one. Only the
 * last line is read and changed, so a paragraph costs the length of its lines, once.
 */
export function appendLine(pieces: string[], next: string): void {
  const previous = lastPiece(pieces);
  if (/\p{Ll}-$/u.test(previous) && /^\p{Ll}/u.test(next)) pieces[pieces.length - 1] = previous.slice(0, -1);
  else if (!(CJK_EDGE.test(previous.slice(-1)) && CJK_EDGE.test(next.charAt(0)))) pieces.push(' ');
  pieces.push(next);
}

/** The paragraph's last line: pieces always end with a line, never with a separator. */
export function lastPiece(pieces: string[]): string {
  return pieces[pieces.length - 1] ?? '';
}

/** A paragraph or list item being read. */
export interface Paragraph {
  /**
   * Its lines and the separators between them, joined when the paragraph ends: appending to one
   * string and then reading its end (hyphen, sentence end) would copy the whole paragraph per line.
   */
  pieces: string[];
  x: number;
  y: number;
  size: number;
  /** The page it starts on: a paragraph that runs on belongs to the page where a reader finds its start. */
  page: number;
  /** A list item: its wrapped lines join it whatever their indentation, while they fill the measure. */
  item: boolean;
  /** Where its last line ends (Infinity: unknown, a line read by OCR). */
  end: number;
}

/**
 * Whether a line goes on with the paragraph: across a page break when no sentence ended and the
 * line does not start like a new one; on a page at the line pitch, without a first-line indent,
 * or, for a list item, under it after a line that filled the measure up to `rightEdge` (a short
 * line ends an item: "2. Approximate comparison" before its section's first paragraph).
 */
export function continuesParagraph(paragraph: Paragraph, line: PdfLine, rightEdge: number): boolean {
  if (Number.isNaN(paragraph.y))
    return !SENTENCE_END.test(lastPiece(paragraph.pieces)) && !/^[\p{Lu}\d]/u.test(line.text);
  const gap = paragraph.y - line.y;
  if (gap <= 0 || gap > Math.max(paragraph.size, line.size) * PARAGRAPH_GAP_RATIO) return false;
  if (!paragraph.item) return line.x - paragraph.x < line.size * INDENT_RATIO;
  const filled =
    !Number.isFinite(rightEdge) || paragraph.end >= rightEdge - (rightEdge - paragraph.x) * SHORT_LINE_SHARE;
  return filled && line.x > paragraph.x - line.size;
}

/** Where a line's last run ends; unknown (Infinity) for a line read by OCR, which has no runs. */
export function lineEnd(line: PdfLine): number {
  if (!line.runs || line.runs.length === 0) return Infinity;
  let end = -Infinity;
  for (const run of line.runs) end = Math.max(end, run.endX);
  return end;
}
