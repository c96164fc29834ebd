import type { PdfLine } from './pageLines';

/** Lines this much higher than the one before them (in font sizes) break top-to-bottom order. */
const RISE_TOLERANCE = 0.3;
/** Lines this long count when telling columns apart: short ones (markers, numbers) sit anywhere. */
const COLUMN_LINE_CHARS = 15;
/** Share of long lines each half of the page must hold, entirely, for the page to be set in columns. */
const COLUMN_SHARE = 0.2;

/**
 * A single-column page's lines, top to bottom. Browsers and WeasyPrint write some blocks out of
 * order (a `pre` block's text, the print header and footer after the body); typeset documents
 * already come in order and cost one pass. Pages set in columns keep the stream's order, which
 * reads each column through.
 */
export function readingOrder(lines: readonly PdfLine[]): PdfLine[] {
  let ordered = true;
  for (let i = 1; i < lines.length && ordered; i++) {
    const [above, line] = [lines[i - 1]!, lines[i]!];
    ordered = line.y <= above.y + RISE_TOLERANCE * Math.max(line.size, above.size);
  }
  if (ordered || inColumns(lines)) return [...lines];
  return [...lines].sort((p, q) =>
    Math.abs(p.y - q.y) <= RISE_TOLERANCE * Math.max(p.size, q.size) ? p.x - q.x : q.y - p.y,
  );
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
