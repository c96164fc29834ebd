import { readFileSync } from 'node:fs';
import { readPdfTextLayer } from '../testkit/fixtures/pdfTextLayer';
import { htmlSourceWords, pdfSourceWords, wordCoverage } from '../testkit/fixtures/wordCoverage';
import type { DocKind } from './stagesParse';

/** What each side's parse output keeps and how it is shaped, measured outside the timed runs. */
export interface Structure {
  tables: number;
  codeBlocks: number;
  headings: number;
  /** PDF only: lines that are a page's running header or footer (recurring edge line, page number). */
  runningHeaderLines: number | null;
  dotLeaders: number;
  hyphenBreaks: number;
}

export interface CorpusMeasures {
  pages: number;
  sourceWords: number;
  coverage: { sluice: number; langchain: number };
  structure: { sluice: Structure; langchain: Structure };
}

const TABLE_RULE = /^ {0,3}\|? *:?-{3,}:? *\|/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?: |\t|$)/;
const DOT_LEADER = /(?:\. ?){5,}/;
const HYPHEN_BREAK = /\p{Ll}-\n[ \t]*\p{Ll}/gu;
const PAGE_NUMBER = /^(\d{1,4}|[ivxlc]{1,6})$/i;

/** As in wordCoverage's pdfSourceWords: digits do not make two running headers differ. */
const edgeKey = (line: string): string => line.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();

export async function analyzeCorpus(
  kind: DocKind,
  files: string[],
  sluice: string[],
  langchain: string[],
): Promise<CorpusMeasures> {
  const source: string[] = [];
  let pages = files.length;
  let runningKeys: Set<string> | null = null;
  if (kind === 'pdf') {
    const layers = [];
    for (const file of files) layers.push(await readPdfTextLayer(file));
    const allPages = layers.flatMap((layer) => layer.pages);
    pages = allPages.length;
    // Measured on content pages: the table-of-contents and index pages sluice leaves out on purpose
    // count for neither side.
    for (const layer of layers)
      for (const word of pdfSourceWords(layer.pages, new Set(layer.referencePages))) source.push(word);
    runningKeys = recurringEdges(allPages);
  } else {
    for (const file of files) for (const word of htmlSourceWords(readFileSync(file, 'utf8'))) source.push(word);
  }
  const sluiceText = sluice.join('\n\n');
  const langchainText = langchain.join('\n\n');
  return {
    pages,
    sourceWords: source.length,
    coverage: {
      sluice: wordCoverage(source, sluiceText).coverage,
      langchain: wordCoverage(source, langchainText).coverage,
    },
    structure: { sluice: structureOf(sluiceText, runningKeys), langchain: structureOf(langchainText, runningKeys) },
  };
}

/** Edge lines (first or last of a page) whose text recurs at the edge of three or more pages. */
function recurringEdges(pages: readonly (readonly string[])[]): Set<string> {
  const counts = new Map<string, number>();
  for (const lines of pages) {
    const edges = new Set(
      [lines[0], lines[lines.length - 1]].filter((line): line is string => line !== undefined).map(edgeKey),
    );
    for (const key of edges) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return new Set([...counts].filter(([key, count]) => count >= 3 && key !== '').map(([key]) => key));
}

export function structureOf(text: string, runningKeys: Set<string> | null): Structure {
  const counts: Structure = {
    tables: 0,
    codeBlocks: 0,
    headings: 0,
    runningHeaderLines: runningKeys ? 0 : null,
    dotLeaders: 0,
    hyphenBreaks: 0,
  };
  let inFence = false;
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) {
      if (!inFence) counts.codeBlocks++;
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (TABLE_RULE.test(line)) counts.tables++;
    if (HEADING.test(line)) counts.headings++;
    if (DOT_LEADER.test(line)) counts.dotLeaders++;
    const trimmed = line.trim();
    if (runningKeys && trimmed !== '' && (PAGE_NUMBER.test(trimmed) || runningKeys.has(edgeKey(trimmed))))
      counts.runningHeaderLines!++;
  }
  counts.hyphenBreaks = text.match(HYPHEN_BREAK)?.length ?? 0;
  return counts;
}
