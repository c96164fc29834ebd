import { readMarkdown, type MarkdownStructure } from './pdfStructureMarkdown';
import { multiset, multisetHits } from './pdfStructureText';
import type { Truth } from './pdfStructureTruth';

/**
 * One document's scores as counts (hits of a total), so documents add up: a figure over a split
 * is the sum of its documents' hits over the sum of their totals, and a long page weighs more.
 */
export interface Tally {
  hits: number;
  total: number;
}

export interface DocumentScore {
  /** Table cells: truth cells found in the output's tables (hits), of truth cells and output cells. */
  cells: { hits: number; truth: number; output: number };
  rows: Tally;
  lists: Tally;
  code: Tally;
  headings: Tally;
  order: Tally;
  words: Tally;
}

/** A list item is found by its first words: the rest may wrap or run on differently in a PDF. */
const ITEM_KEY_WORDS = 8;
/** A block is located by its first words; blocks shorter than this are too common to locate. */
const ORDER_KEY_WORDS = 6;

/** Truth rows found whole in one output row: all of their cells, each once. */
function rowHits(truth: Truth, output: MarkdownStructure): Tally {
  const rows = truth.tables.flat().filter((row) => row.length >= 2);
  const outputRows = output.tables.flat();
  const hits = rows.filter((row) => outputRows.some((candidate) => multisetHits(row, candidate) === row.length));
  return { hits: hits.length, total: rows.length };
}

function listHits(truth: Truth, output: MarkdownStructure): Tally {
  const left = [...output.listItems];
  let hits = 0;
  for (const item of truth.listItems) {
    const key = item.split(' ').slice(0, ITEM_KEY_WORDS).join(' ');
    const at = left.findIndex((candidate) => candidate === key || candidate.startsWith(`${key} `));
    if (at >= 0) {
      hits++;
      left.splice(at, 1);
    }
  }
  return { hits, total: truth.listItems.length };
}

/**
 * Headings match on text and on level relative to the document's shallowest heading, on each
 * side: an h2 under a page's h1 must come out one level below the output's top level, whatever
 * absolute level a side starts at. A side with no headings scores none.
 */
function headingHits(truth: Truth, output: MarkdownStructure): Tally {
  const top = (levels: number[]) => Math.min(...levels);
  const truthTop = top(truth.headings.map((heading) => heading.level));
  const outputTop = top(output.headings.map((heading) => heading.level));
  const keys = (headings: { level: number; text: string }[], offset: number) =>
    headings.map((heading) => `${heading.level - offset} ${heading.text}`);
  const hits =
    output.headings.length === 0 ? 0 : multisetHits(keys(truth.headings, truthTop), keys(output.headings, outputTop));
  return { hits, total: truth.headings.length };
}

/**
 * Reading order: of the truth's blocks that can be located in the output (a key of their first
 * words occurring once in the truth and found in the output), the share of consecutive pairs whose
 * first occurrences come in the truth's order. Blocks a side lost are for words kept to count.
 */
function orderHits(truth: Truth, output: MarkdownStructure): Tally {
  const keys = truth.blocks
    .map((block) => block.split(' ').slice(0, ORDER_KEY_WORDS))
    .filter((words) => words.length === ORDER_KEY_WORDS)
    .map((words) => words.join(' '));
  const counts = multiset(keys);
  const haystack = ` ${output.flat} `;
  const positions = keys
    .filter((key) => counts.get(key) === 1)
    .map((key) => haystack.indexOf(` ${key} `))
    .filter((position) => position >= 0);
  let hits = 0;
  for (let i = 1; i < positions.length; i++) if (positions[i]! > positions[i - 1]!) hits++;
  return { hits, total: Math.max(positions.length - 1, 0) };
}

export function scoreDocument(truth: Truth, markdown: string): DocumentScore {
  const output = readMarkdown(markdown);
  const truthCells = truth.tables.flat(2);
  const outputCells = output.tables.flat(2);
  return {
    cells: { hits: multisetHits(truthCells, outputCells), truth: truthCells.length, output: outputCells.length },
    rows: rowHits(truth, output),
    lists: listHits(truth, output),
    code: { hits: multisetHits(truth.codeLines, output.codeLines), total: truth.codeLines.length },
    headings: headingHits(truth, output),
    order: orderHits(truth, output),
    words: { hits: multisetHits(truth.words, output.words), total: truth.words.length },
  };
}

/** Cell F1 (0..1) from summed counts: precision over output cells, recall over truth cells. */
export function cellF1(cells: DocumentScore['cells']): number {
  if (cells.hits === 0) return 0;
  const precision = cells.hits / cells.output;
  const recall = cells.hits / cells.truth;
  return (2 * precision * recall) / (precision + recall);
}

export function addScores(a: DocumentScore, b: DocumentScore): DocumentScore {
  const add = (x: Tally, y: Tally): Tally => ({ hits: x.hits + y.hits, total: x.total + y.total });
  return {
    cells: {
      hits: a.cells.hits + b.cells.hits,
      truth: a.cells.truth + b.cells.truth,
      output: a.cells.output + b.cells.output,
    },
    rows: add(a.rows, b.rows),
    lists: add(a.lists, b.lists),
    code: add(a.code, b.code),
    headings: add(a.headings, b.headings),
    order: add(a.order, b.order),
    words: add(a.words, b.words),
  };
}

export const NO_SCORE: DocumentScore = {
  cells: { hits: 0, truth: 0, output: 0 },
  rows: { hits: 0, total: 0 },
  lists: { hits: 0, total: 0 },
  code: { hits: 0, total: 0 },
  headings: { hits: 0, total: 0 },
  order: { hits: 0, total: 0 },
  words: { hits: 0, total: 0 },
};
