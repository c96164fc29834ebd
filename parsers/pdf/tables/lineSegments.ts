import type { PdfLine } from '../pdfLine';

/** Runs this far apart (in font sizes) on one line stand in different columns: wider than any word space. */
export const COLUMN_GAP = 1.2;
/** A gap wider than this share of a font size between two runs is a space (as pageLines reads it). */
export const SPACE_GAP = 0.15;

/** Text of a line between two column-wide gaps. */
export interface Segment {
  text: string;
  x: number;
  endX: number;
}

/**
 * A line's runs joined into the segments that column-wide gaps separate. `starts`: column
 * starts known already, where a run after any visible gap begins a segment (a table with
 * narrow padding).
 */
export function lineSegments(line: PdfLine, starts: readonly number[] = []): Segment[] {
  const segments: Segment[] = [];
  let open: Segment | null = null;
  for (const run of line.runs ?? []) {
    const gap = open ? run.x - open.endX : Infinity;
    const atStart = gap > line.size * SPACE_GAP && starts.some((x) => Math.abs(x - run.x) <= line.size * 0.5);
    if (open && gap <= line.size * COLUMN_GAP && !atStart) {
      open.text += gap > line.size * SPACE_GAP ? ` ${run.text}` : run.text;
      open.endX = run.endX;
    } else {
      open = { text: run.text, x: run.x, endX: run.endX };
      segments.push(open);
    }
  }
  for (const segment of segments) segment.text = segment.text.replace(/\s+/g, ' ').trim();
  return segments;
}
