import type { Structure } from './stagesMeasures';

export interface Figures {
  median: number;
  rounds: number[];
  peakRssMb: number;
}

interface ChunkFigures extends Figures {
  chunks: number;
  retrievable: number;
  retrievableChars: { median: number; p95: number; max: number; mean: number };
}

interface Ratio {
  rounds: number[];
  median: number;
}

export interface CorpusResult {
  corpus: string;
  kind: string;
  pages: number;
  markdownMb: number;
  parse: { sluice: Figures; langchain: Figures; ratio: Ratio };
  chunk: {
    sluice: ChunkFigures;
    recursive: ChunkFigures;
    markdown: ChunkFigures;
    ratioRecursive: Ratio;
    ratioMarkdown: Ratio;
  };
  sourceWords: number;
  coverage: { sluice: number; langchain: number };
  structure: { sluice: Structure; langchain: Structure };
}

const span = (ratio: Ratio): string =>
  `${Math.min(...ratio.rounds)}–${Math.max(...ratio.rounds)} (median ${ratio.median})`;
const pct = (value: number): string => `${(value * 100).toFixed(2)} %`;
const shape = (s: Structure): string =>
  `tables ${s.tables}, code ${s.codeBlocks}, headings ${s.headings}, running-header lines ${s.runningHeaderLines ?? 'n/a'}, dot leaders ${s.dotLeaders}, hyphen breaks ${s.hyphenBreaks}`;

/** Markdown tables on stdout: what a reader of the CI log or docs/benchmarks.md wants to see. */
export function printStagesTable(results: CorpusResult[]): void {
  const lines = [
    '| corpus | sluice parse pages/s | LangChain.js | ratio per round | sluice chunk MB/s | Recursive | ratio | Markdown splitter | ratio |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    lines.push(
      `| ${r.corpus} | ${r.parse.sluice.median} | ${r.parse.langchain.median} | ${span(r.parse.ratio)} | ${r.chunk.sluice.median} | ${r.chunk.recursive.median} | ${span(r.chunk.ratioRecursive)} | ${r.chunk.markdown.median} | ${span(r.chunk.ratioMarkdown)} |`,
    );
  }
  lines.push(
    '',
    '| corpus | side | parse peak RSS MB | chunk peak RSS MB | chunks (retrievable) | retrievable chars median / p95 / max | word coverage |',
    '|---|---|---|---|---|---|---|',
  );
  for (const r of results) {
    const c = r.chunk;
    lines.push(
      `| ${r.corpus} | sluice | ${r.parse.sluice.peakRssMb} | ${c.sluice.peakRssMb} | ${c.sluice.chunks} (${c.sluice.retrievable}) | ${sizes(c.sluice)} | ${pct(r.coverage.sluice)} |`,
    );
    lines.push(
      `| ${r.corpus} | LangChain.js Recursive | ${r.parse.langchain.peakRssMb} | ${c.recursive.peakRssMb} | ${c.recursive.chunks} | ${sizes(c.recursive)} | ${pct(r.coverage.langchain)} |`,
    );
    lines.push(
      `| ${r.corpus} | LangChain.js Markdown | | ${c.markdown.peakRssMb} | ${c.markdown.chunks} | ${sizes(c.markdown)} | |`,
    );
  }
  lines.push('');
  for (const r of results) {
    lines.push(`${r.corpus} (${r.pages} pages, ${r.markdownMb} MB markdown, ${r.sourceWords} source words)`);
    lines.push(`  sluice:       ${shape(r.structure.sluice)}`);
    lines.push(`  LangChain.js: ${shape(r.structure.langchain)}`);
  }
  console.log(lines.join('\n'));
}

function sizes(figures: ChunkFigures): string {
  const s = figures.retrievableChars;
  return `${s.median} / ${s.p95} / ${s.max}`;
}
