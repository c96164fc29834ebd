import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixturePdf } from '../testkit/fixtures/pdfFixture';
import { stageCorpora, type StageCorpus } from './stagesCorpora';
import type { CorpusMeasures } from './stagesMeasures';
import type { Splitter } from './stagesChunk';
import type { Side } from './stagesParse';
import { printStagesTable, type CorpusResult, type Figures } from './stagesTable';

/**
 * `npm run bench:stages`: sluice against LangChain.js, stage by stage, on real documents nobody
 * here wrote. Parse: pages/s of each side's own parser. Chunk: MB/s of each side's splitter on the
 * same input (sluice's markdown, per document). Every side, stage and corpus runs in a fresh
 * process (bench/stagesProbe.ts) after a warm-up; rounds alternate which side goes first, and each
 * round's ratio is sluice ÷ peer throughput (> 1: sluice faster). Word coverage and structural
 * counts of both parse outputs are measured afterwards, outside the timed runs.
 * BENCH_STAGES_SCALE < 1 is the reduced run for CI; JSON goes to bench-results/ (BENCH_OUT names it).
 */
const SCALE = Number(process.env.BENCH_STAGES_SCALE ?? 1);
const ROUNDS = Number(process.env.BENCH_STAGES_ROUNDS ?? 3);
const OUT = process.env.BENCH_OUT ?? (SCALE < 1 ? 'stages-ci.json' : 'stages.json');
const repoRoot = path.resolve(__dirname, '..');
const MB = 1024 * 1024;

interface ParseProbe {
  seconds: number;
  peakRssMb: number;
  outputChars: number;
}

interface ChunkProbe {
  seconds: number;
  peakRssMb: number;
  inputMb: number;
  chunks: number;
  retrievable: number;
  retrievableChars: { median: number; p95: number; max: number; mean: number };
}

function probe<T>(args: string[]): T {
  const output = execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'stagesProbe.ts'), ...args], {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 16 * MB,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output.trim().split('\n').pop() ?? '{}') as T;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;

function figures(throughputs: number[], peaks: number[]): Figures {
  return {
    median: round(median(throughputs)),
    rounds: throughputs.map((t) => round(t)),
    peakRssMb: round(median(peaks), 1),
  };
}

function ratios(sluice: number[], peer: number[]): { rounds: number[]; median: number } {
  const perRound = sluice.map((s, i) => s / peer[i]!);
  return { rounds: perRound.map((r) => round(r)), median: round(median(perRound)) };
}

function runCorpus(corpus: StageCorpus, dir: string, warmUpPdf: string): CorpusResult {
  const files = path.join(dir, 'files.json');
  fs.writeFileSync(files, JSON.stringify(corpus.files));
  const out = (side: Side): string => path.join(dir, `${side}.json`);
  const warmUp = corpus.kind === 'pdf' ? warmUpPdf : corpus.files[0]!;
  const parse: Record<Side, ParseProbe[]> = { sluice: [], langchain: [] };
  const chunk: Record<Splitter, ChunkProbe[]> = { sluice: [], recursive: [], markdown: [] };
  for (let r = 0; r < ROUNDS; r++) {
    // Sluice first in even rounds, so its markdown (the chunkers' shared input) exists for round 0.
    const order: Side[] = r % 2 === 0 ? ['sluice', 'langchain'] : ['langchain', 'sluice'];
    for (const side of order) {
      parse[side].push(probe<ParseProbe>(['parse', side, corpus.kind, files, out(side), warmUp]));
      for (const splitter of side === 'sluice' ? (['sluice'] as const) : (['recursive', 'markdown'] as const)) {
        chunk[splitter].push(probe<ChunkProbe>(['chunk', splitter, out('sluice')]));
      }
    }
    console.error(`  ${corpus.name}: round ${r + 1}/${ROUNDS} done`);
  }
  const measures = probe<CorpusMeasures>(['analyze', corpus.kind, files, out('sluice'), out('langchain')]);
  const pagesPerS = (runs: ParseProbe[]): number[] => runs.map((run) => measures.pages / run.seconds);
  const mbPerS = (runs: ChunkProbe[]): number[] => runs.map((run) => run.inputMb / run.seconds);
  const chunkShape = (runs: ChunkProbe[]) => ({
    chunks: runs[0]!.chunks,
    retrievable: runs[0]!.retrievable,
    retrievableChars: runs[0]!.retrievableChars,
  });
  return {
    corpus: corpus.name,
    kind: corpus.kind,
    pages: measures.pages,
    markdownMb: round(chunk.sluice[0]!.inputMb, 3),
    parse: {
      sluice: figures(
        pagesPerS(parse.sluice),
        parse.sluice.map((run) => run.peakRssMb),
      ),
      langchain: figures(
        pagesPerS(parse.langchain),
        parse.langchain.map((run) => run.peakRssMb),
      ),
      ratio: ratios(pagesPerS(parse.sluice), pagesPerS(parse.langchain)),
    },
    chunk: {
      sluice: {
        ...figures(
          mbPerS(chunk.sluice),
          chunk.sluice.map((run) => run.peakRssMb),
        ),
        ...chunkShape(chunk.sluice),
      },
      recursive: {
        ...figures(
          mbPerS(chunk.recursive),
          chunk.recursive.map((run) => run.peakRssMb),
        ),
        ...chunkShape(chunk.recursive),
      },
      markdown: {
        ...figures(
          mbPerS(chunk.markdown),
          chunk.markdown.map((run) => run.peakRssMb),
        ),
        ...chunkShape(chunk.markdown),
      },
      ratioRecursive: ratios(mbPerS(chunk.sluice), mbPerS(chunk.recursive)),
      ratioMarkdown: ratios(mbPerS(chunk.sluice), mbPerS(chunk.markdown)),
    },
    sourceWords: measures.sourceWords,
    coverage: { sluice: round(measures.coverage.sluice, 4), langchain: round(measures.coverage.langchain, 4) },
    structure: measures.structure,
  };
}

function main(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-stages-'));
  try {
    const warmUpPdf = path.join(dir, 'warm-up.pdf');
    fs.writeFileSync(
      warmUpPdf,
      fixturePdf([
        [{ text: 'Warm-up', size: 18 }, { text: 'One page that runs the PDF path once before the timed run.' }],
      ]),
    );
    const results: CorpusResult[] = [];
    for (const corpus of stageCorpora(SCALE)) {
      const corpusDir = fs.mkdtempSync(path.join(dir, 'corpus-'));
      results.push(runCorpus(corpus, corpusDir, warmUpPdf));
    }
    const report = { benchmark: 'stages', scale: SCALE, rounds: ROUNDS, node: process.version, corpora: results };
    const outDir = path.join(repoRoot, 'bench-results');
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, OUT), `${JSON.stringify(report, null, 2)}\n`);
    printStagesTable(results);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
