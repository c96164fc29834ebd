import type { PdfLine } from './pdfLine';

/** Lines this much higher than the one before them (in font sizes) break top-to-bottom order. */
const RISE_TOLERANCE = 0.3;
/** A drop of more than this many font sizes ends a block: a footer is not part of the text above it. */
const BLOCK_GAP = 3;
/** Blocks moved per page at most: each move costs a pass over the page, and typeset pages need none. */
const MAX_MOVES = 64;
/** Lines this long count when telling columns apart: short ones (markers, numbers) sit anywhere. */
const COLUMN_LINE_CHARS = 15;
/** Share of long lines each half of the page must hold, entirely, for the page to be set in columns. */
const COLUMN_SHARE = 0.2;

/**
 * A single-column page's lines top to bottom. Browsers and WeasyPrint write some blocks out of
 * order (a `pre` block's text, the print header after the body): such a block, a run of lines
 * that starts above where the text had got to, moves as a whole to its height. One that starts
 * on the baseline of a line already read sits beside it (a table cell) and stays where it is, as
 * do pages set in columns. Typeset documents come in order and cost one pass.
 */
export function readingOrder(lines: readonly PdfLine[]): PdfLine[] {
  const blocks = blocksOf(lines);
  if (blocks.length < 2 || inColumns(lines)) return [...lines];
  const out: PdfLine[] = [...(blocks[0] ?? [])];
  const baselines = new Set(out.map((line) => Math.round(line.y)));
  let moves = 0;
  for (const block of blocks.slice(1)) {
    const top = block[0]!;
    const last = out[out.length - 1]!;
    const rises = top.y > last.y + RISE_TOLERANCE * Math.max(top.size, last.size);
    const beside = [-1, 0, 1].some((d) => baselines.has(Math.round(top.y) + d));
    if (rises && !beside && moves < MAX_MOVES) {
      moves++;
      const at = out.findIndex((line) => line.y < top.y);
      out.splice(at < 0 ? out.length : at, 0, ...block);
    } else out.push(...block);
    for (const line of block) baselines.add(Math.round(line.y));
  }
  return out;
}

/** Runs of lines going down the page without a jump up or a wide gap. */
function blocksOf(lines: readonly PdfLine[]): PdfLine[][] {
  const blocks: PdfLine[][] = [];
  let block: PdfLine[] = [];
  lines.forEach((line, i) => {
    const above = lines[i - 1];
    const size = Math.max(line.size, above?.size ?? 0);
    const drop = above ? above.y - line.y : 0;
    if (above && (drop < -RISE_TOLERANCE * size || drop > BLOCK_GAP * size)) {
      blocks.push(block);
      block = [];
    }
    block.push(line);
  });
  if (block.length > 0) blocks.push(block);
  return blocks;
}

function inColumns(lines: readonly PdfLine[]): boolean {
  let left = Infinity;
  let right = -Infinity;
  for (const line of lines) {
    left = Math.min(left, line.x);
    right = Math.max(right, lineEnd(line));
  }
  const middle = (left + right) / 2;
  let long = 0;
  let leftHalf = 0;
  let rightHalf = 0;
  for (const line of lines) {
    if (line.text.length < COLUMN_LINE_CHARS) continue;
    long++;
    if (lineEnd(line) < middle) leftHalf++;
    else if (line.x > middle) rightHalf++;
  }
  return long > 0 && leftHalf >= long * COLUMN_SHARE && rightHalf >= long * COLUMN_SHARE;
}

/** Where a line's last run ends; a line without runs (OCR) is taken to end where it starts. */
function lineEnd(line: PdfLine): number {
  let end = line.x;
  for (const run of line.runs ?? []) end = Math.max(end, run.endX);
  return end;
}
