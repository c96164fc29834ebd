import { cellF1, type DocumentScore, type Tally } from './pdfStructureScore';

/** One line of the report: a side's figures over a split, for one renderer or all of them. */
export interface Row {
  side: string;
  split: string;
  renderer: string;
  /** Percentages (0..100, one decimal); null where the truth has nothing of that kind. */
  cellF1: number | null;
  rows: number | null;
  lists: number | null;
  code: number | null;
  headings: number | null;
  order: number | null;
  words: number | null;
  pages: number;
  seconds: number;
  cpuSeconds: number;
  /** Pages over the wall-clock seconds of the side's parses. */
  pagesPerSecond: number;
  /** Pages over the CPU seconds of the parsing process: steadier on a shared machine. */
  pagesPerCpuSecond: number;
  counts: DocumentScore;
}

const percent = (value: number) => Math.round(value * 1000) / 10;
const perSecond = (pages: number, seconds: number) => (seconds === 0 ? 0 : Math.round((pages / seconds) * 10) / 10);
const share = (tally: Tally) => (tally.total === 0 ? null : percent(tally.hits / tally.total));

export function summarize(
  side: string,
  split: string,
  renderer: string,
  {
    scores: counts,
    pages,
    seconds,
    cpuSeconds,
  }: { scores: DocumentScore; pages: number; seconds: number; cpuSeconds: number },
): Row {
  return {
    side,
    split,
    renderer,
    cellF1: counts.cells.truth === 0 ? null : percent(cellF1(counts.cells)),
    rows: share(counts.rows),
    lists: share(counts.lists),
    code: share(counts.code),
    headings: share(counts.headings),
    order: share(counts.order),
    words: share(counts.words),
    pages,
    seconds: Math.round(seconds * 100) / 100,
    cpuSeconds: Math.round(cpuSeconds * 100) / 100,
    pagesPerSecond: perSecond(pages, seconds),
    pagesPerCpuSecond: perSecond(pages, cpuSeconds),
    counts,
  };
}

const COLUMNS: [string, (row: Row) => string][] = [
  ['side', (row) => row.side],
  ['split', (row) => row.split],
  ['renderer', (row) => row.renderer],
  ['cell F1', (row) => String(row.cellF1 ?? '-')],
  ['rows %', (row) => String(row.rows ?? '-')],
  ['lists %', (row) => String(row.lists ?? '-')],
  ['code %', (row) => String(row.code ?? '-')],
  ['headings %', (row) => String(row.headings ?? '-')],
  ['order %', (row) => String(row.order ?? '-')],
  ['words %', (row) => String(row.words ?? '-')],
  ['pages', (row) => String(row.pages)],
  ['pages/s', (row) => String(row.pagesPerSecond)],
  ['pages/cpu-s', (row) => String(row.pagesPerCpuSecond)],
];

/** A fixed-width table, split then renderer then side, for the terminal and the docs. */
export function formatTable(rows: Row[]): string {
  const order = (row: Row) => `${row.split === 'all' ? 'z' : row.split}|${row.renderer === 'all' ? '' : row.renderer}`;
  const sorted = [...rows].sort((a, b) => order(a).localeCompare(order(b)));
  const cells = [COLUMNS.map(([title]) => title), ...sorted.map((row) => COLUMNS.map(([, cell]) => cell(row)))];
  const widths = COLUMNS.map((_, column) => Math.max(...cells.map((line) => line[column]!.length)));
  return cells.map((line) => line.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')).join('\n');
}
