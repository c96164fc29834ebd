import type { PdfMark } from './pageGeometry';
import { listItem } from './listMarkers';
import type { PdfLine } from './pdfLine';

/** How far below and above a line's baseline (in font sizes) a bullet's centre may sit: the x-height band. */
const BAND_BELOW = 0.2;
const BAND_ABOVE = 0.8;
/** A bullet ends at most this many font sizes left of its item's text, and at most this far into it. */
const MAX_GAP = 3;
const OVERLAP = 0.2;
/** Keeps a stray large size from widening the search around every mark. */
const MAX_SEARCH_SIZE = 72;

/**
 * Browsers draw a list's disc or square as a filled path, with no glyph in the text layer: each
 * mark just left of a line's first character, within the line's x-height band, makes that line a
 * bullet item, written with a `•` like a glyph bullet (listMarkers.ts reads it from there).
 * Lines are bucketed by rounded baseline, so a page costs its lines plus its marks.
 */
export function withShapeBullets(lines: readonly PdfLine[], marks: readonly PdfMark[]): PdfLine[] {
  if (marks.length === 0) return [...lines];
  const byBaseline = new Map<number, PdfLine[]>();
  let largest = 0;
  for (const line of lines) {
    largest = Math.max(largest, Math.min(line.size, MAX_SEARCH_SIZE));
    const key = Math.round(line.y);
    const bucket = byBaseline.get(key);
    if (bucket) bucket.push(line);
    else byBaseline.set(key, [line]);
  }
  const bullets = new Map<PdfLine, PdfMark>();
  for (const mark of marks) {
    const line = lineRightOf(mark, byBaseline, largest);
    if (line && !bullets.has(line)) bullets.set(line, mark);
  }
  return lines.map((line) => {
    const mark = bullets.get(line);
    if (!mark) return line;
    const bullet = { text: '•', x: mark.x, endX: mark.x + mark.width, size: line.size, font: '', mono: false };
    return { ...line, text: `• ${line.text}`, x: mark.x, runs: [bullet, ...(line.runs ?? [])] };
  });
}

function lineRightOf(mark: PdfMark, byBaseline: Map<number, PdfLine[]>, largest: number): PdfLine | null {
  const centre = mark.y + mark.height / 2;
  const markEnd = mark.x + mark.width;
  let best: PdfLine | null = null;
  for (let key = Math.floor(centre - largest * BAND_ABOVE); key <= Math.ceil(centre + largest * BAND_BELOW); key++) {
    for (const line of byBaseline.get(key) ?? []) {
      if (mark.height > line.size || centre < line.y - line.size * BAND_BELOW) continue;
      if (centre > line.y + line.size * BAND_ABOVE) continue;
      const gap = line.x - markEnd;
      if (gap < -line.size * OVERLAP || gap > line.size * MAX_GAP) continue;
      if (!best || gap < best.x - markEnd) best = line;
    }
  }
  return best;
}

/** Indented lines without a marker of their own a page needs before its drawn bullets are looked for. */
const BULLET_HINTS = 2;
/** A list's hanging indent, in font sizes, beyond the page's leftmost text. */
const ITEM_INDENT = 1.2;

/**
 * Whether a page may carry bullets drawn as paths, read before paying for its operator list: lines
 * set in from the page's left edge that start with no marker glyph or number (an item whose disc
 * is a path starts with its text, at the list's indent).
 */
export function mayHoldShapeBullets(lines: readonly PdfLine[]): boolean {
  let left = Infinity;
  for (const line of lines) if (!line.mono) left = Math.min(left, line.x);
  let hints = 0;
  for (const line of lines) {
    if (line.mono || line.x - left < line.size * ITEM_INDENT || listItem(line) !== null) continue;
    if (++hints >= BULLET_HINTS) return true;
  }
  return false;
}
