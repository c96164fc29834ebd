import type { PixelBox } from './rgbaImage';

export interface OcrLine extends PixelBox {
  text: string;
  confidence: number;
}

/** Two boxes are on one line when they overlap vertically by this share of the shorter one. */
const SAME_LINE_OVERLAP = 0.5;
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/**
 * Recognised boxes in reading order, boxes on one visual line joined left to right: top to
 * bottom by their top edge, a box joining the line before it when they overlap vertically
 * enough. Sorting makes it n log n in the boxes; each box is joined once.
 */
export function readingOrder(boxes: readonly OcrLine[]): OcrLine[] {
  const sorted = boxes.filter((box) => box.text.trim() !== '').sort((a, b) => a.top - b.top);
  const rows: OcrLine[][] = [];
  for (const box of sorted) {
    const row = rows[rows.length - 1];
    if (row && overlapShare(row, box) >= SAME_LINE_OVERLAP) row.push(box);
    else rows.push([box]);
  }
  return rows.map((row) => joinRow(row.sort((a, b) => a.left - b.left)));
}

function overlapShare(row: readonly OcrLine[], box: OcrLine): number {
  let top = Infinity;
  let bottom = -Infinity;
  for (const member of row) {
    top = Math.min(top, member.top);
    bottom = Math.max(bottom, member.bottom);
  }
  const overlap = Math.min(bottom, box.bottom) - Math.max(top, box.top);
  return overlap / Math.max(1, Math.min(bottom - top, box.bottom - box.top));
}

/** Characters weigh the confidence: a long line read well outweighs a stray mark read badly. */
function joinRow(row: readonly OcrLine[]): OcrLine {
  const parts: string[] = [];
  let weighted = 0;
  let chars = 0;
  const bounds = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
  for (const box of row) {
    bounds.left = Math.min(bounds.left, box.left);
    bounds.top = Math.min(bounds.top, box.top);
    bounds.right = Math.max(bounds.right, box.right);
    bounds.bottom = Math.max(bounds.bottom, box.bottom);
    const text = box.text.trim();
    const previous = parts[parts.length - 1];
    if (previous !== undefined && !(CJK.test(previous.slice(-1)) && CJK.test(text.charAt(0)))) parts.push(' ');
    parts.push(text);
    weighted += box.confidence * text.length;
    chars += text.length;
  }
  return { text: parts.join(''), confidence: chars === 0 ? 0 : weighted / chars, ...bounds };
}
