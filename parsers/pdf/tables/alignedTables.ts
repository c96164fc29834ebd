import type { PdfLine } from '../pdfLine';
import { nearestCluster } from './clusterValues';
import { lineSegments, type Segment } from './lineSegments';
import type { FoundTable } from './ruledTables';

/** Rows a table without rules needs, its header included: two aligned lines are as often a label and its value. */
const MIN_ROWS = 3;
/** A step down (in font sizes) beyond this from the lowest line so far ends the table. */
const MAX_STEP = 2.6;
/**
 * Cells averaging more characters than this in the first and the last column are running
 * text side by side: a two-column page, not a table of short values.
 */
const PROSE_CELL_CHARS = 28;
/** Lines one table may take: each line that starts a run is read on from, so this keeps a page linear. */
const MAX_RUN_LINES = 300;

interface Placed {
  line: PdfLine;
  segments: Segment[];
}

/**
 * Tables without rules: a line split by wide gaps into two or more segments (a header) opens
 * the columns, and the lines after it belong to the table while no segment runs past the start
 * of the next column, no line climbs into the row above, and none drops far below the lowest
 * so far; a segment starting where no column does opens one (a header cell may span two lines
 * or be missing). Browsers write a table cell by cell and typesetters line by line; either
 * way a line starting left of where the previous line's last segment started begins a new
 * row, and other lines add to the row they continue (a wrapped cell). Rows of one cell at the
 * end are what follows the table. Three rows, two with two cells, not every line fixed-pitch
 * (code) and not prose side by side.
 */
export function alignedTables(lines: readonly PdfLine[]): FoundTable[] {
  const found: FoundTable[] = [];
  let i = 0;
  while (i < lines.length) {
    const head = (lines[i]!.runs?.length ?? 0) < 2 ? [] : lineSegments(lines[i]!);
    if (head.length < 2) {
      i++;
      continue;
    }
    const table = toTable(readRun(lines, i, head));
    if (table) found.push(table);
    i += table ? table.lines.size : 1;
  }
  return found;
}

function readRun(lines: readonly PdfLine[], start: number, head: Segment[]): Placed[] {
  const starts: number[] = [];
  const size = lines[start]!.size;
  const placed: Placed[] = [];
  let rowBottom = Infinity;
  let aboveBottom = Infinity;
  let lowest = lines[start]!.y;
  let lastX = Infinity;
  for (let i = start; i < Math.min(lines.length, start + MAX_RUN_LINES); i++) {
    const line = lines[i]!;
    if (line.heading !== undefined || line.y < lowest - line.size * MAX_STEP) break;
    const segments = i === start ? head : lineSegments(line, starts);
    if (segments.length === 0) break;
    for (const segment of segments) if (nearestCluster(starts, segment.x, size) < 0) insertSorted(starts, segment.x);
    const overflows = segments.some(
      (segment) => segment.endX > (starts.find((x) => x > segment.x + size) ?? Infinity) + size,
    );
    if (overflows) break;
    const newRow = segments[0]!.x < lastX - size;
    if (newRow) [aboveBottom, rowBottom] = [rowBottom, line.y];
    if (line.y >= aboveBottom) break;
    rowBottom = Math.min(rowBottom, line.y);
    lowest = Math.min(lowest, line.y);
    lastX = segments[segments.length - 1]!.x;
    placed.push({ line, segments });
  }
  return placed;
}

function insertSorted(values: number[], value: number): void {
  let at = values.length;
  while (at > 0 && values[at - 1]! > value) at--;
  values.splice(at, 0, value);
}

function toTable(run: readonly Placed[]): FoundTable | null {
  if (run.length === 0 || run.every((placed) => placed.line.mono)) return null;
  const size = run[0]!.line.size;
  const starts: number[] = [];
  for (const { segments } of run)
    for (const segment of segments) if (nearestCluster(starts, segment.x, size) < 0) insertSorted(starts, segment.x);
  const rows: string[][] = [];
  const rowLines: PdfLine[][] = [];
  let lastX = Infinity;
  for (const { line, segments } of run) {
    if (segments[0]!.x < lastX - size) {
      rows.push(Array<string>(starts.length).fill(''));
      rowLines.push([]);
    }
    const row = rows[rows.length - 1]!;
    for (const segment of segments) {
      const column = nearestCluster(starts, segment.x, size);
      row[column] = row[column] === '' ? segment.text : `${row[column]} ${segment.text}`;
    }
    rowLines[rowLines.length - 1]!.push(line);
    lastX = segments[segments.length - 1]!.x;
  }
  while (rows.length > 0 && rows[rows.length - 1]!.filter((cell) => cell !== '').length < 2) {
    rows.pop();
    rowLines.pop();
  }
  const full = rows.filter((row) => row.filter((cell) => cell !== '').length >= 2).length;
  if (rows.length < MIN_ROWS || full < 2 || isProse(rows)) return null;
  return { table: { rows, columns: starts }, lines: new Set(rowLines.flat()) };
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
