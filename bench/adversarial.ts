import fs from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS } from '../chunker/chunkMarkdown';
import { SluiceError } from '../contracts/sluiceError';
import { convertFile } from '../parsers/convertFile';
import { detectFileType } from '../parsers/detectFileType';
import { DEFAULT_PARSE_LIMITS } from '../parsers/parseLimits';
import { sparseVectorFromTokens } from '../sparse/sparseVector';
import { tokenize } from '../tokenizer/tokenize';
import { ADVERSARIAL_TEXT_INPUTS } from './adversarialChunkerInputs';
import { ADVERSARIAL_PARSER_INPUTS } from './adversarialInputs';
import { measureGrowth, type Growth } from './growth';

/**
 * `npm run bench:adversarial`: every hostile input of the adversarial suites (parsers, chunker,
 * tokenizer, sparse weighting) timed at size n and 2n in this process, without the parse thread.
 * Fails (exit 1) when any path's time grows more than MAX_RATIO times: linear work doubles, a
 * quadratic step quadruples, and a ratio holds on a loaded machine where absolute times do not.
 * BENCH_ADVERSARIAL_SCALE scales every n (CI: 0.25); BENCH_ADVERSARIAL_FILTER keeps the inputs
 * whose name contains it. Prints a table and writes bench-results/adversarial.json.
 */
const MAX_RATIO = 2.5;
/** A ratio over the limit is measured again before it counts: a burst of load can hit a round. */
const ATTEMPTS = 3;
const SCALE = Number(process.env.BENCH_ADVERSARIAL_SCALE ?? 1);
const FILTER = process.env.BENCH_ADVERSARIAL_FILTER ?? '';
const repoRoot = path.resolve(__dirname, '..');

interface Case {
  name: string;
  n: number;
  /** Builds the inputs of size n and 2n (outside the timing) and returns the timed call. */
  prepare: (n: number) => Promise<{ inputs: [unknown, unknown]; call: (input: unknown) => unknown }>;
}

interface Result extends Growth {
  name: string;
  n: number;
  /** 'ok', or the failure code the path ended with at size n (failing fast is a valid outcome). */
  outcome: string;
  attempts: number;
}

function textCases(dir: string): Case[] {
  const parserCases = ADVERSARIAL_PARSER_INPUTS.map(({ name, path: kind, make, n }): Case => ({
    name,
    n,
    prepare: async (size) => {
      if (kind === 'detect')
        return { inputs: [make(size), make(2 * size)], call: (head) => detectFileType(head as Buffer, 'upload') };
      const files = await Promise.all(
        [size, 2 * size].map(async (count) => {
          const file = path.join(dir, `${count}-${name.replace(/\W+/g, '-')}.${kind}`);
          await writeFile(file, make(count));
          return file;
        }),
      );
      return { inputs: [files[0], files[1]], call: (file) => convertFile(file as string, kind, DEFAULT_PARSE_LIMITS) };
    },
  }));
  const chunkerCases = ADVERSARIAL_TEXT_INPUTS.map(({ name, path: kind, make, n }): Case => ({
    name,
    n,
    prepare: (size) => {
      const [small, large] = [make(size), make(2 * size)];
      if (kind === 'chunk')
        return Promise.resolve({
          inputs: [small, large],
          call: (text) => chunkMarkdown('bench', text as string, DEFAULT_CHUNKER_OPTIONS),
        });
      if (kind === 'tokenize')
        return Promise.resolve({ inputs: [small, large], call: (text) => tokenize(text as string) });
      // Sparse weighting alone, on the terms tokenize() gives.
      return Promise.resolve({
        inputs: [tokenize(small), tokenize(large)],
        call: (terms) => sparseVectorFromTokens(terms as string[]),
      });
    },
  }));
  return [...parserCases, ...chunkerCases].filter((c) => c.name.includes(FILTER));
}

/** Settles one call to a label: 'ok' or its failure code, so a path that fails fast is still timed. */
async function outcomeOf(call: () => unknown): Promise<string> {
  try {
    await call();
    return 'ok';
  } catch (error) {
    return error instanceof SluiceError ? error.code : `error: ${error instanceof Error ? error.name : 'unknown'}`;
  }
}

async function measure(c: Case): Promise<Result> {
  const n = Math.max(1, Math.round(c.n * SCALE));
  const { inputs, call } = await c.prepare(n);
  const outcome = await outcomeOf(() => call(inputs[0]));
  const settled = (input: unknown): Promise<string> => outcomeOf(() => call(input));
  let growth = await measureGrowth(inputs, settled);
  let attempts = 1;
  while (growth.ratio > MAX_RATIO && attempts < ATTEMPTS) {
    growth = await measureGrowth(inputs, settled);
    attempts++;
  }
  return { name: c.name, n, outcome, attempts, ...growth };
}

function row(cells: (string | number)[]): string {
  const widths = [46, 10, 18, 10, 10, 7];
  return cells
    .map((cell, i) => (i === 0 || i === 2 ? String(cell).padEnd(widths[i]!) : String(cell).padStart(widths[i]!)))
    .join(' ');
}

const round = (value: number): number => Math.round(value * 100) / 100;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sluice-bench-adversarial-'));
  const results: Result[] = [];
  try {
    console.log(row(['input', 'n', 'outcome', 'ms(n)', 'ms(2n)', 'ratio']));
    for (const c of textCases(dir)) {
      const result = await measure(c);
      results.push(result);
      const flag = result.ratio > MAX_RATIO ? '  FAIL' : '';
      console.log(
        `${row([result.name, result.n, result.outcome, round(result.msAtN), round(result.msAt2N), round(result.ratio)])}${flag}`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const failed = results.filter((result) => result.ratio > MAX_RATIO).map((result) => result.name);
  const summary = {
    benchmark: 'adversarial',
    scale: SCALE,
    maxRatio: MAX_RATIO,
    results: results.map((r) => ({ ...r, msAtN: round(r.msAtN), msAt2N: round(r.msAt2N), ratio: round(r.ratio) })),
    failed,
    withinTarget: failed.length === 0,
  };
  const outDir = path.join(repoRoot, 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'adversarial.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    failed.length === 0
      ? `all ${results.length} growth ratios <= ${MAX_RATIO}`
      : `FAIL: growth over ${MAX_RATIO} in ${failed.join('; ')}`,
  );
  if (failed.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
