import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../config/config';
import { createDb } from '../db/connection';
import { createAdapters } from '../worker/adapters';
import { resetBenchDatabase } from './benchDatabase';
import { bigMarkdown, ensureCorpus, pickPages, type CorpusFile } from './corpus';
import { durableRun } from './durableRun';
import { tableWrites, writesBetween } from './pgWrites';
import type { PlainRunResult } from './plainLoop';
import type { BenchDoc } from './plainPipeline';
import { registerCorpus } from './registerCorpus';
import { benchSettings, sluiceEnv, type BenchSettings } from './settings';
import { renderTable, summarize, type SideSummary } from './summary';

/**
 * `npm run bench`: the same corpus through (a) the plain in-process loop and (b) the durable
 * pipeline, one after the other in one run on the same machine. JSON on stdout and in
 * bench-results/throughput.json; a short table on stderr. BENCH_DOCS=40 BENCH_BIG_CHUNKS=500 is
 * the reduced size CI runs (npm run bench:ci).
 */
const ROOT = path.resolve(__dirname, '..');
/** Settling time for Postgres backends of exited processes to publish their row counts. */
const STATS_SETTLE_MS = 1500;

async function runPlain(s: BenchSettings, env: Record<string, string>, docs: BenchDoc[], lanes: number): Promise<PlainRunResult> {
  fs.mkdirSync(s.dataDir, { recursive: true });
  const manifest = path.join(s.dataDir, 'plain-manifest.json');
  const result = path.join(s.dataDir, 'plain-result.json');
  fs.writeFileSync(manifest, JSON.stringify({ docs, lanes }));
  const child = spawn(process.execPath, [...s.nodeArgs, '--import', 'tsx', path.join(__dirname, 'plainLoop.ts'), manifest, result], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`plain loop exited with ${code}`);
  return JSON.parse(fs.readFileSync(result, 'utf8')) as PlainRunResult;
}

async function main(): Promise<void> {
  const s = benchSettings();
  const env = sluiceEnv(s);
  const config = loadConfig({ ...process.env, ...env });
  const lanes = s.lanes || config.worker.activitySlots;
  const inflight = s.inflight || 4 * lanes;
  await resetBenchDatabase(s.databaseUrl);
  const files: CorpusFile[] = pickPages(ensureCorpus(), s.docs);
  // The large document goes first, so on both sides it runs alongside the pages, not alone at the end.
  if (s.bigChunks > 0) files.unshift({ fileName: `generated-${s.bigChunks}-chunks.md`, source: { text: bigMarkdown(s.bigChunks) } });

  const registering = createAdapters(config);
  const plainDocs = await registerCorpus(registering, files, { userId: 'bench', datasetId: 'plain' });
  const durableDocs = new Map<number, BenchDoc[]>();
  for (const n of s.workerCounts) durableDocs.set(n, await registerCorpus(registering, files, { userId: 'bench', datasetId: `durable-${n}` }));
  await registering.close();
  console.error(`bench: ${files.length} documents, ${lanes} lanes, ${inflight} workflows open, queue ${s.taskQueue}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  const stats = createDb(s.databaseUrl, 1);
  const loadBefore = os.loadavg();
  try {
    await sleep(STATS_SETTLE_MS);
    let before = await tableWrites(stats);
    const plain = await runPlain(s, env, plainDocs, lanes);
    await sleep(STATS_SETTLE_MS);
    let after = await tableWrites(stats);
    const sides: SideSummary[] = [
      summarize({
        side: 'a: plain loop',
        workerProcesses: 1,
        elapsedMs: plain.elapsedMs,
        docs: plain.docs.map((d) => ({ ms: d.ms, chunks: d.result.chunks, error: d.result.error })),
        stageMsTotal: sumStages(plain.docs.map((d) => d.result.stageMs)),
        processes: [{ peakRssBytes: plain.peakRssBytes, cpuSeconds: plain.cpuSeconds }],
        writes: writesBetween(before, after),
      }),
    ];
    console.error(`bench: (a) done in ${sides[0]?.elapsedS} s`);
    const metrics: Record<string, string[]> = {};
    for (const [i, n] of s.workerCounts.entries()) {
      before = after;
      const docs = durableDocs.get(n) as BenchDoc[];
      const run = await durableRun(env, docs, { workers: n, inflight, historySample: s.historySample, logDir: s.dataDir, metricsPortBase: 19460 + i * 10, nodeArgs: s.nodeArgs }, stats);
      await sleep(STATS_SETTLE_MS);
      after = await tableWrites(stats);
      const summary = summarize({
        side: `b: durable, ${n} worker${n > 1 ? 's' : ''}`,
        workerProcesses: n,
        elapsedMs: run.elapsedMs,
        docs: run.docs.map((d) => ({ ms: d.ms, chunks: d.result.chunks, error: d.result.status === 'SUCCESS' ? null : (d.result.failureCode ?? 'FAILED') })),
        stageMsTotal: run.stageMsTotal,
        processes: run.workerStats,
        writes: writesBetween(before, after),
      });
      const h = run.history;
      summary.historyBytesPerDoc = { mean: h.meanBytes, max: h.maxBytes, largestDocument: h.largestDocumentBytes, maxEvents: h.maxEvents, sampled: h.sampled };
      sides.push(summary);
      metrics[summary.side] = run.metrics;
      console.error(`bench: (b) with ${n} worker(s) done in ${summary.elapsedS} s`);
    }
    const [a, b] = sides as [SideSummary, SideSummary];
    const result = {
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, memoryGB: Math.round(os.totalmem() / 2 ** 30), loadAverageBefore: loadBefore, loadAverageAfter: os.loadavg() },
      settings: { documents: files.length, corpusPages: files.length - (s.bigChunks > 0 ? 1 : 0), bigDocumentChunks: s.bigChunks, lanes, workflowsOpen: inflight, profile: config.stores },
      ratio: { docsPerS: Number((b.docsPerS / a.docsPerS).toFixed(3)), chunksPerS: Number((b.chunksPerS / a.chunksPerS).toFixed(3)) },
      sides,
      workerMetrics: metrics,
    };
    const json = JSON.stringify(result, redactSecrets, 2);
    console.log(json);
    fs.mkdirSync(path.dirname(s.outFile), { recursive: true });
    fs.writeFileSync(s.outFile, `${json}\n`);
    console.error(`\n${renderTable(sides, a)}\n\nratio b/a (documents/s): ${result.ratio.docsPerS}`);
  } finally {
    await stats.destroy();
  }
}

function sumStages<T extends Record<string, number>>(rows: T[]): T {
  const total: Record<string, number> = {};
  for (const row of rows) for (const [k, v] of Object.entries(row)) total[k] = (total[k] ?? 0) + v;
  return total as T;
}

/** The stores config can hold keys and passwords: the report names the adapters only. */
function redactSecrets(key: string, value: unknown): unknown {
  return /secret|password|apikey|accesskey/i.test(key) ? undefined : value;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
