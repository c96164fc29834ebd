import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createVectorizingActivity } from '../activities/stages/vectorizing';
import type { ActivityDeps } from '../activities/deps';
import { createAdapters } from '../composition/adapters';
import { loadConfig } from '../config/config';
import { replaceChunks } from '../db/repositories/chunks';
import { insertDocument } from '../db/repositories/documents';
import { insertTaskWithPipeline } from '../db/repositories/newTask';
import { migrateToLatest } from '../db/migrate';
import { round } from './searchMeasures';

/**
 * `npm run bench:vectorizing`: VECTORIZING's chunks/s on the local profile (USE on the CPU, Postgres
 * vectors) with the first dense vector only (the default) and with the second dense vector (bge-small of each
 * chunk's language), side by side in one run: rounds alternate which goes first, over the same
 * real texts (the repository's docs in English, paragraphs of the Chinese fixture). The real
 * VECTORIZING activity, called directly, so the figures hold the embedding and the writes only.
 */
const CHUNKS = Number(process.env.BENCH_VECTORIZING_CHUNKS ?? 120);
const ROUNDS = Number(process.env.BENCH_VECTORIZING_ROUNDS ?? 2);
const repoRoot = path.resolve(__dirname, '..');

function texts(): string[] {
  const english = fs
    .readdirSync(path.join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .flatMap((f) => fs.readFileSync(path.join(repoRoot, 'docs', f), 'utf8').split(/\n\n+/))
    .filter((p) => p.length >= 300);
  const chinese = fs
    .readFileSync(path.join(repoRoot, 'test', 'fixtures', '上传指南.html'), 'utf8')
    .replace(/<[^>]*>/g, '\n')
    .split(/\n+/)
    .filter((p) => /[\u4e00-\u9fff]{8}/.test(p));
  if (english.length === 0 || chinese.length === 0) throw new Error('no English or no Chinese paragraphs to embed');
  // One chunk in five Chinese, as in a mixed dataset.
  return Array.from({ length: CHUNKS }, (_, i) =>
    i % 5 === 4 ? (chinese[i % chinese.length] as string) : (english[i % english.length] as string),
  );
}

async function run(deps: ActivityDeps, chunkTexts: string[]): Promise<number> {
  const doc = { documentId: randomUUID(), userId: 'bench-user', datasetId: 'bench-vectorizing' };
  await insertDocument(deps.db, {
    id: doc.documentId,
    user_id: doc.userId,
    dataset_id: doc.datasetId,
    file_name: 'bench.md',
    size_bytes: 1,
    content_sha256: doc.documentId,
    source_object_key: `sources/${doc.documentId}`,
  });
  await replaceChunks(
    deps.db,
    { ...doc, generation: 0 },
    chunkTexts.map((text, i) => ({
      chunkId: `${doc.documentId}:${i}`,
      chunkIndex: i,
      kind: 'child' as const,
      parentId: null,
      childRange: null,
      sectionPath: [],
      text,
      charCount: text.length,
      tokenCount: 100,
    })),
  );
  const input = { ...doc, taskId: randomUUID() };
  await insertTaskWithPipeline(deps.db, {
    taskId: input.taskId,
    documentId: doc.documentId,
    ownerRunChain: randomUUID(),
    inherited: { CLEANING: 1, CHUNKING: 1 },
  });
  const started = performance.now();
  await new MockActivityEnvironment().run(createVectorizingActivity(deps), input);
  return chunkTexts.length / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const config = loadConfig({ ...process.env, SLUICE_EMBEDDER: 'local-model', SLUICE_LANGUAGE_DENSE: 'on' });
  const adapters = createAdapters(config);
  await migrateToLatest(adapters.db);
  const base = { db: adapters.db, vectors: adapters.vectors, embedders: adapters.embedders };
  const settings = {
    embedBatchSize: config.embedding.batchSize,
    passageWindows: config.embedding.passageWindows,
  } as ActivityDeps['settings'];
  const sides = {
    firstDenseOnly: { ...base, languageEmbedders: null, settings } as unknown as ActivityDeps,
    withLanguageDense: { ...base, languageEmbedders: adapters.languageEmbedders, settings } as unknown as ActivityDeps,
  };
  const chunkTexts = texts();
  await run(sides.withLanguageDense, chunkTexts.slice(0, 10)); // warm both models' sessions
  const rates: Record<keyof typeof sides, number[]> = { firstDenseOnly: [], withLanguageDense: [] };
  for (let r = 0; r < ROUNDS; r += 1) {
    const order = (
      r % 2 === 0 ? ['firstDenseOnly', 'withLanguageDense'] : ['withLanguageDense', 'firstDenseOnly']
    ) as (keyof typeof sides)[];
    for (const side of order) rates[side].push(await run(sides[side], chunkTexts));
  }
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const result = {
    bench: 'vectorizing',
    chunks: CHUNKS,
    rounds: ROUNDS,
    threads: config.embedding.localModel.threads,
    chunksPerSecond: {
      firstDenseOnly: rates.firstDenseOnly.map((x) => round(x, 2)),
      withLanguageDense: rates.withLanguageDense.map((x) => round(x, 2)),
    },
    ratioWithOverWithout: round(mean(rates.withLanguageDense) / mean(rates.firstDenseOnly), 3),
    loadAverage: { before: loadBefore.map((l) => round(l, 2)), after: os.loadavg().map((l) => round(l, 2)) },
  };
  fs.mkdirSync(path.join(repoRoot, 'bench-results'), { recursive: true });
  fs.writeFileSync(path.join(repoRoot, 'bench-results', 'vectorizing.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  await adapters.close();
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
