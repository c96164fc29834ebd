import { readFileSync, writeFileSync } from 'node:fs';
import { peakRssBytes } from './processStats';
import type { Splitter } from './stagesChunk';
import type { DocKind, Side } from './stagesParse';

/**
 * One fresh process per side, stage and corpus, run by bench/stages.ts; prints one JSON line.
 *   parse <side> <kind> <files.json> <out.json> <warm-up file>
 *   chunk <splitter> <markdown.json>
 *   analyze <kind> <files.json> <sluice.json> <langchain.json>
 * Each timed run follows a warm-up on a small input, so the JIT has compiled the hot paths.
 * Each mode loads only its own modules: a chunk probe neither pays for nor depends on the parsers.
 */
const MB = 1024 * 1024;
const WARM_UP_CHARS = 300_000;

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

async function parse(
  side: Side,
  kind: DocKind,
  filesJson: string,
  outJson: string,
  warmUpFile: string,
): Promise<object> {
  const files = readJson<string[]>(filesJson);
  const { parseDocument } = await import('./stagesParse.js');
  await parseDocument(side, kind, warmUpFile);
  const outputs: string[] = [];
  const started = process.hrtime.bigint();
  for (const file of files) outputs.push(await parseDocument(side, kind, file));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakRssMb = peakRssBytes('self') / MB;
  writeFileSync(outJson, JSON.stringify(outputs));
  return { seconds, peakRssMb, outputChars: outputs.reduce((sum, text) => sum + text.length, 0) };
}

async function chunk(splitter: Splitter, markdownJson: string): Promise<object> {
  const documents = readJson<string[]>(markdownJson);
  const { chunkDocuments } = await import('./stagesChunk.js');
  const warmUp: string[] = [];
  for (let chars = 0, i = 0; chars < WARM_UP_CHARS && i < documents.length; i++) {
    const text = (documents[i] as string).slice(0, WARM_UP_CHARS - chars);
    warmUp.push(text);
    chars += text.length;
  }
  await chunkDocuments(splitter, warmUp);
  const started = process.hrtime.bigint();
  const stats = await chunkDocuments(splitter, documents);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakRssMb = peakRssBytes('self') / MB;
  const bytes = documents.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  const sizes = stats.retrievableChars.sort((a, b) => a - b);
  const at = (q: number): number => sizes[Math.min(sizes.length - 1, Math.floor(q * sizes.length))] ?? 0;
  return {
    seconds,
    peakRssMb,
    inputMb: bytes / MB,
    chunks: stats.chunks,
    retrievable: stats.retrievable,
    retrievableChars: {
      median: at(0.5),
      p95: at(0.95),
      max: sizes[sizes.length - 1] ?? 0,
      mean: Math.round(sizes.reduce((s, n) => s + n, 0) / Math.max(1, sizes.length)),
    },
  };
}

async function main(): Promise<void> {
  const [mode, ...args] = process.argv.slice(2);
  let result: object;
  if (mode === 'parse') result = await parse(args[0] as Side, args[1] as DocKind, args[2]!, args[3]!, args[4]!);
  else if (mode === 'chunk') result = await chunk(args[0] as Splitter, args[1]!);
  else if (mode === 'analyze')
    result = await (
      await import('./stagesMeasures.js')
    ).analyzeCorpus(
      args[0] as DocKind,
      readJson<string[]>(args[1]!),
      readJson<string[]>(args[2]!),
      readJson<string[]>(args[3]!),
    );
  else throw new Error(`unknown mode ${mode}`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
