import type { PdfLine } from '../pageLines';
import { clusterValues, nearestCluster } from './clusterValues';
import { lineSegments, type Segment } from './lineSegments';
import type { FoundTable } from './ruledTables';

/** Rows a table without rules needs: two aligned lines are as often a label and its value. */
const MIN_ROWS = 3;
/** Share of the multi-column lines whose every segment starts at a column: alignment, not chance. */
const ALIGNED_SHARE = 0.8;
/** A vertical step (in font sizes) beyond this, down or up, ends the table. */
const MAX_STEP = 2.6;
/**
 * Segments averaging more characters than this in the first and the last column are running
 * text side by side: a two-column page, not a table of short values.
 */
const PROSE_CELL_CHARS = 28;

/**
 * Tables without rules: runs of consecutive lines that split at wide gaps into segments whose
 * left edges line up in at least two columns over at least three rows. A line of one segment
 * inside such a run is a wrapped cell (it goes to the column it starts under); a line in a
 * fixed-pitch font, a heading, a long line of one segment or a large vertical step ends it.
 * Rows start at each line with text in the first column; others add to the row above.
 */
export function alignedTables(lines: readonly PdfLine[]): FoundTable[] {
  const found: FoundTable[] = [];
  const segments = lines.map(lineSegments);
  let i = 0;
  while (i < lines.length) {
    if (segments[i]!.length < 2 || lines[i]!.mono) {
      i++;
      continue;
    }
    const end = runEnd(lines, segments, i);
    const table = alignedTable(lines.slice(i, end), segments.slice(i, end));
    if (table) found.push(table);
    i = Math.max(end, i + 1);
  }
  return found;
}

/** The end (exclusive) of the run of lines from `start` that may form one table. */
function runEnd(lines: readonly PdfLine[], segments: readonly Segment[][], start: number): number {
  let left = Infinity;
  let right = -Infinity;
  for (const segment of segments[start]!) [left, right] = [Math.min(left, segment.x), Math.max(right, segment.endX)];
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end]!;
    const step = Math.abs(lines[end - 1]!.y - line.y);
    if (line.mono || line.heading !== undefined || step > line.size * MAX_STEP) break;
    const own = segments[end]!;
    if (own.length < 2 && (own[0]?.endX ?? 0) - (own[0]?.x ?? 0) > (right - left) / 2) break;
  }
  return end;
}

function alignedTable(run: readonly PdfLine[], runSegments: readonly Segment[][]): FoundTable | null {
  // Lines of one segment after the last aligned line are what follows the table.
  let end = run.length;
  while (end > 0 && runSegments[end - 1]!.length < 2) end--;
  const lines = run.slice(0, end);
  const segments = runSegments.slice(0, end);
  const multi = segments.filter((own) => own.length >= 2);
  if (multi.length < MIN_ROWS) return null;
  const size = lines[0]!.size;
  const columns = clusterValues(
    multi.flat().map((segment) => segment.x),
    size,
  );
  const aligned = multi.filter((own) => own.every((segment) => nearestCluster(columns, segment.x, size) >= 0));
  if (columns.length < 2 || aligned.length < multi.length * ALIGNED_SHARE) return null;

  const rows: string[][] = [];
  let lowest = Infinity;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const own = segments[i]!;
    const first = nearestCluster(columns, own[0]?.x ?? -Infinity, size);
    if (rows.length === 0 || (first === 0 && line.y < lowest - line.size * 0.5)) {
      rows.push(Array<string>(columns.length).fill(''));
      lowest = line.y;
    }
    lowest = Math.min(lowest, line.y);
    const row = rows[rows.length - 1]!;
    for (const segment of own) {
      const column = columnOf(columns, segment.x, size);
      row[column] = row[column] === '' ? segment.text : `${row[column]} ${segment.text}`;
    }
  }
  if (rows.length < MIN_ROWS || isProse(rows)) return null;
  return { table: { rows, columns }, lines: new Set(lines) };
}

/** The column a segment starting at `x` belongs to: the last column starting at or before it. */
function columnOf(columns: readonly number[], x: number, tolerance: number): number {
  let column = 0;
  for (let c = 0; c < columns.length; c++) if (columns[c]! <= x + tolerance) column = c;
  return column;
}

function isProse(rows: readonly string[][]): boolean {
  const average = (c: number): number => {
    let chars = 0;
    for (const row of rows) chars += row[c]?.length ?? 0;
    return chars / rows.length;
  };
  const last = (rows[0]?.length ?? 1) - 1;
  return average(0) > PROSE_CELL_CHARS && average(last) > PROSE_CELL_CHARS;
}
