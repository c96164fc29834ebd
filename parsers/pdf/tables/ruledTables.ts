import type { PdfLine } from '../pdfLine';
import { cellText, type CellPiece } from './cellText';
import type { PdfTable } from './pdfTable';
import { ruled, RULE_TOLERANCE, type RuleGrid } from './ruleGrids';

/** A table found on a page and the lines it was read from (they leave the text flow). */
export interface FoundTable {
  table: PdfTable;
  lines: Set<PdfLine>;
}

/** Height (PDF units, about four lines) beyond which a row one cell across at a table's edge is a frame. */
const MAX_MERGED_ROW = 50;
/** Where a glyph's middle sits above its baseline, in font sizes: what decides a line's row. */
const MID_GLYPH = 0.3;

/**
 * The table a grid of rules draws, from the lines set inside it: each run goes to the cell its
 * middle falls in. Two grid cells with no rule between them are one merged cell, and grid rows
 * merged in every column that holds text are one row (a rule inside a cell split them). A
 * merged cell's text is
 * written once in its first column, and repeated down the rows it spans: a row split off into
 * a chunk of its own then still says which group it belongs to, while repeating it across the
 * columns of one row would only add the same words twice to that row. Rows and columns left
 * empty (a gap between a frame and the cells' own borders) are dropped. Null unless two rows
 * have text in two cells: framed boxes side by side (a search field and its button) are no table.
 */
export function ruledTable(grid: RuleGrid, lines: readonly PdfLine[]): FoundTable | null {
  const { xs, ys } = grid;
  const left = xs[0]! - RULE_TOLERANCE;
  const right = xs[xs.length - 1]! + RULE_TOLERANCE;
  const rows = ys.length - 1;
  const columns = xs.length - 1;
  const owner = mergedCells(grid, rows, columns);
  const [firstRow, lastRow] = tableRows(grid, owner, columns);
  if (lastRow <= firstRow) return null;
  const pieces: CellPiece[][] = Array.from({ length: rows * columns }, () => []);
  const inside = new Set<PdfLine>();
  for (const line of lines) {
    const mid = line.y + line.size * MID_GLYPH;
    const runs = line.runs ?? [];
    if (mid > ys[firstRow]! || mid < ys[lastRow + 1]! || runs.length === 0) continue;
    if (runs[0]!.x < left || runs[runs.length - 1]!.endX > right) continue;
    const row = indexBetween(ys, mid, true);
    for (const run of runs) {
      const column = indexBetween(xs, (run.x + run.endX) / 2, false);
      if (crossesRule(grid, row, run)) return null;
      pieces[row * columns + column]!.push({ run, y: line.y });
    }
    inside.add(line);
  }
  const text = pieces.map(cellText);
  const merged = new Map<number, string[]>();
  owner.forEach((first, i) => {
    if (text[i] === '') return;
    const parts = merged.get(first);
    if (parts) parts.push(text[i]!);
    else merged.set(first, [text[i]!]);
  });
  const textColumns = [...Array(columns).keys()].filter((c) =>
    text.some((cell, i) => i % columns === c && cell !== ''),
  );
  const cells: string[][] = [];
  for (let r = firstRow; r <= lastRow; r++) {
    const sameRow = r > firstRow && textColumns.every((c) => owner[r * columns + c] === owner[(r - 1) * columns + c]);
    if (sameRow) continue;
    const row: string[] = [];
    for (let c = 0; c < columns; c++) {
      const first = owner[r * columns + c]!;
      row.push(c === first % columns ? (merged.get(first) ?? []).join(' ') : '');
    }
    cells.push(row);
  }
  const kept = dropEmpty(cells, xs);
  const fullRows = kept.rows.filter((row) => row.filter((cell) => cell !== '').length >= 2).length;
  if (fullRows < 2 || kept.columns.length < 2) return null;
  return { table: kept, lines: inside };
}

/**
 * The grid's rows that belong to the table: a tall row at its top or bottom that is one cell
 * across is a frame around more than the table (a page's or a section's border), not part of
 * it; a short one is a row of the table merged across (a note, a group's title).
 */
function tableRows(grid: RuleGrid, owner: readonly number[], columns: number): [number, number] {
  const { ys } = grid;
  const whole = (r: number): boolean =>
    owner[r * columns] === owner[r * columns + columns - 1] && ys[r]! - ys[r + 1]! > MAX_MERGED_ROW;
  const rows = ys.length - 1;
  let first = 0;
  let last = rows - 1;
  while (first <= last && whole(first)) first++;
  while (last >= first && whole(last)) last--;
  return [first, last];
}

/** A run set across a column rule of its row: the rules frame something other than this text. */
function crossesRule(grid: RuleGrid, row: number, run: { x: number; endX: number }): boolean {
  const middleY = (grid.ys[row]! + grid.ys[row + 1]!) / 2;
  for (let c = 1; c < grid.xs.length - 1; c++) {
    const x = grid.xs[c]!;
    if (run.x < x - RULE_TOLERANCE && run.endX > x + RULE_TOLERANCE && ruled(grid.vertical, 'x', x, middleY))
      return true;
  }
  return false;
}

/** The interval of sorted `bounds` that `value` falls in (clamped to the first and last). */
function indexBetween(bounds: readonly number[], value: number, descending: boolean): number {
  for (let i = 1; i < bounds.length - 1; i++) if (descending ? value > bounds[i]! : value < bounds[i]!) return i - 1;
  return bounds.length - 2;
}

/** Each grid cell's merged cell, named by its first (top-left) grid cell's index. */
function mergedCells(grid: RuleGrid, rows: number, columns: number): number[] {
  const { xs, ys, vertical, horizontal } = grid;
  const owner = Array.from({ length: rows * columns }, (_, i) => i);
  const find = (i: number): number => {
    while (owner[i] !== i) i = owner[i]!;
    return i;
  };
  const join = (a: number, b: number): void => {
    const [ra, rb] = [find(a), find(b)];
    owner[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let r = 0; r < rows; r++) {
    const middleY = (ys[r]! + ys[r + 1]!) / 2;
    for (let c = 0; c < columns; c++) {
      const middleX = (xs[c]! + xs[c + 1]!) / 2;
      if (c + 1 < columns && !ruled(vertical, 'x', xs[c + 1]!, middleY)) join(r * columns + c, r * columns + c + 1);
      if (r + 1 < rows && !ruled(horizontal, 'y', ys[r + 1]!, middleX)) join(r * columns + c, (r + 1) * columns + c);
    }
  }
  return owner.map((_, i) => find(i));
}

/** The table without rows and columns that hold no text. */
function dropEmpty(cells: string[][], xs: readonly number[]): PdfTable {
  const width = cells[0]?.length ?? 0;
  const used = Array.from({ length: width }, (_, c) => cells.some((row) => row[c] !== ''));
  const rows = cells.filter((row) => row.some((cell) => cell !== '')).map((row) => row.filter((_, c) => used[c]));
  return { rows, columns: xs.slice(0, width).filter((_, c) => used[c]) };
}
