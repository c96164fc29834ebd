import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../config/config';
import type { TemporalConfig } from '../config/temporalConnectionConfig';
import { createDb } from '../db/connection';
import { createAdapters } from '../composition/adapters';
import { resetBenchDatabase } from './benchDatabase';
import { bigMarkdown, ensureCorpus, pickPages, type CorpusFile } from './corpus';
import { durableSide } from './durableSide';
import { cpuSplit, setAffinity, stackPid, stackServerPids, type CpuSplit } from './pinning';
import { tableWrites, writesBetween, type TableWrites } from './pgWrites';
import type { BenchDoc } from './plainPipeline';
import { plainSide } from './plainSide';
import { cpuSeconds, processTreeCpuSeconds } from './processStats';
import { registerCorpus } from './registerCorpus';
import { renderScaling, scalingRows, type RoundFigure, type ScalingRow } from './scaling';
import { benchSettings, sluiceEnv } from './settings';
import type { BenchSide, DocOutcome } from './side';
import { renderTable, summarize, type SideSummary } from './summary';

/**
 * `npm run bench`: the same corpus through (a) the plain in-process loop and (b) the durable
 * pipeline (and (b) again with more worker processes, BENCH_WORKERS=1,2), in one run on this
 * machine. The corpus is cut into rounds and the sides take turns, order alternating, so load
 * from anything else on the machine falls on every side alike. With BENCH_PIN=1 every side runs
 * a second time pinned (bench/pinning.ts), in the same rounds, and both ratios are reported. JSON
 * on stdout and in bench-results/throughput.json; a short table on stderr.
 */
async function main(): Promise<void> {
  const s = benchSettings();
  const env = sluiceEnv(s);
  const config = loadConfig({ ...process.env, ...env });
  const lanes = s.lanes || config.worker.activitySlots;
  const inflight = s.inflight || 4 * lanes;
  const split = s.pin ? cpuSplit() : null;
  if (s.pin && !split) throw new Error('BENCH_PIN=1 needs at least 2 cores');
  // null: unpinned; a split: the pinned copy of every side.
  const modes: (CpuSplit | null)[] = split ? [null, split] : [null];
  const suffix = (mode: CpuSplit | null) => (mode ? '-pinned' : '');
  await resetBenchDatabase(s.databaseUrl);
  const files: CorpusFile[] = pickPages(ensureCorpus(), s.docs);
  // The large document comes first, so it runs alongside the pages, not alone at the end.
  if (s.bigChunks > 0)
    files.unshift({ fileName: `generated-${s.bigChunks}-chunks.md`, source: { text: bigMarkdown(s.bigChunks) } });

  // Each side gets its own copy of the corpus (its own dataset and document ids).
  const registering = createAdapters(config);
  const docsOf = new Map<string, BenchDoc[]>();
  for (const mode of modes) {
    for (const key of ['plain', ...s.workerCounts.map((n) => `durable-${n}`)].map((k) => `${k}${suffix(mode)}`)) {
      docsOf.set(key, await registerCorpus(registering, files, { userId: 'bench', datasetId: key }));
    }
  }
  await registering.close();

  const stats = createDb(s.databaseUrl, 1);
  const loadBefore = os.loadavg();
  const sides: { key: string; side: BenchSide; mode: CpuSplit | null }[] = [];
  try {
    for (const [m, mode] of modes.entries()) {
      const cpus = mode?.pipeline;
      sides.push({
        key: `plain${suffix(mode)}`,
        mode,
        side: plainSide({ env, lanes, workDir: s.dataDir, nodeArgs: s.nodeArgs, cpus }),
      });
      for (const [i, n] of s.workerCounts.entries()) {
        // Each worker count polls its own task queue, so idle workers of one side never take the other's work.
        const sideEnv = { ...env, SLUICE_TASK_QUEUE: `${s.taskQueue}-w${n}${suffix(mode)}` };
        const metricsPortBase = 19460 + i * 10 + m * 5;
        const opts = {
          env: sideEnv,
          workers: n,
          inflight,
          historySample: s.historySample,
          logDir: s.dataDir,
          metricsPortBase,
          nodeArgs: s.nodeArgs,
          cpus,
          splitQueues: process.env.BENCH_SPLIT_QUEUES === '1',
        };
        sides.push({ key: `durable-${n}${suffix(mode)}`, mode, side: await durableSide(opts, stats) });
      }
    }
    console.error(
      `bench: ${files.length} documents in ${s.rounds} rounds, ${lanes} lanes, ${inflight} workflows open, load ${fmtLoad(loadBefore)}`,
    );

    const outcomes = new Map<string, Accumulated>(
      sides.map((x) => [x.key, { elapsedMs: 0, docs: [], writes: {}, serverCpuSeconds: 0, postgresCpuSeconds: 0 }]),
    );
    const server = stackPid(s.temporalServerPidFile);
    const roundsOf = new Map<string, RoundFigure[]>(sides.map((x) => [x.key, []]));
    const postgres = stackPid('../pg/postmaster.pid');
    await sleep(1500);
    let before = await tableWrites(stats);
    for (let round = 0; round < s.rounds; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const { key, side, mode } of order) {
        const docs = (docsOf.get(key) ?? []).filter((_, i) => i % s.rounds === round);
        // The servers move to their half of the cores for a pinned side's round, and back after it.
        if (split) setAffinity(stackServerPids(), mode ? mode.servers : split.all);
        const serverBefore = server ? cpuSeconds(server) : 0;
        const postgresBefore = postgres ? processTreeCpuSeconds(postgres) : 0;
        const result = await side.runRound(docs);
        const serverUsed = server ? cpuSeconds(server) - serverBefore : 0;
        await sleep(side.settleMs);
        const after = await tableWrites(stats);
        const acc = outcomes.get(key) as Accumulated;
        // After the settle pause: backends of the plain loop's exited process are reaped by then.
        acc.postgresCpuSeconds += postgres ? processTreeCpuSeconds(postgres) - postgresBefore : 0;
        acc.elapsedMs += result.elapsedMs;
        acc.serverCpuSeconds += serverUsed;
        acc.docs.push(...result.docs);
        for (const [table, n] of Object.entries(writesBetween(before, after)))
          acc.writes[table] = (acc.writes[table] ?? 0) + n;
        before = after;
        roundsOf.get(key)?.push({
          round: round + 1,
          docs: docs.length,
          elapsedMs: result.elapsedMs,
          docsPerS: Number((docs.length / (result.elapsedMs / 1000)).toFixed(3)),
          load1: Number(os.loadavg()[0]?.toFixed(2)),
        });
        console.error(
          `bench: round ${round + 1}/${s.rounds} ${side.label}: ${docs.length} documents in ${(result.elapsedMs / 1000).toFixed(1)} s`,
        );
      }
    }

    const summaries: SideSummary[] = [];
    const metrics: Record<string, string[]> = {};
    for (const { key, side } of sides) {
      const totals = await side.finish();
      const acc = outcomes.get(key) as Accumulated;
      const summary = summarize({
        side: side.label,
        workerProcesses: side.workerProcesses,
        ...acc,
        stageMsTotal: totals.stageMsTotal,
        processes: totals.processes,
      });
      if (totals.history) {
        const h = totals.history;
        summary.historyBytesPerDoc = {
          mean: h.meanBytes,
          max: h.maxBytes,
          largestDocument: h.largestDocumentBytes,
          meanEvents: h.meanEvents,
          maxEvents: h.maxEvents,
          sampled: h.sampled,
        };
      }
      if (totals.metrics) metrics[side.label] = totals.metrics;
      summaries.push(summary);
    }
    const pinned = summaries.filter((_, i) => sides[i]?.mode);
    const unpinned = sides.filter((x) => !x.mode);
    const scaling = scalingRows(
      unpinned.map((x) => ({
        key: x.key,
        label: x.side.label,
        workerProcesses: x.key === 'plain' ? null : x.side.workerProcesses,
      })),
      roundsOf,
      'plain',
      unpinned.some((x) => x.key === 'durable-1') ? 'durable-1' : null,
    );
    report(
      summaries.filter((_, i) => !sides[i]?.mode),
      pinned.length > 0 ? pinned : null,
      metrics,
      scaling,
      { files, s, lanes, inflight, loadBefore, stores: config.stores, temporal: temporalTarget(config.temporal) },
    );
    // The objects (sources, markdown, token plans) of three copies of the corpus; worker logs stay.
    fs.rmSync(path.join(s.dataDir, 'objects'), { recursive: true, force: true });
  } finally {
    // The shared stack's servers get every core back, whatever happened.
    if (split) setAffinity(stackServerPids(), split.all);
    await stats.destroy();
  }
}

function report(
  summaries: SideSummary[],
  pinned: SideSummary[] | null,
  metrics: Record<string, string[]>,
  scaling: ScalingRow[],
  ctx: {
    files: CorpusFile[];
    s: ReturnType<typeof benchSettings>;
    lanes: number;
    inflight: number;
    loadBefore: number[];
    stores: unknown;
    temporal: ReturnType<typeof temporalTarget>;
  },
): void {
  const [a, b] = summaries as [SideSummary, SideSummary];
  const result = {
    at: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      memoryGB: Math.round(os.totalmem() / 2 ** 30),
      loadAverageBefore: ctx.loadBefore,
      loadAverageAfter: os.loadavg(),
    },
    settings: {
      documents: ctx.files.length,
      corpusPages: ctx.files.length - (ctx.s.bigChunks > 0 ? 1 : 0),
      bigDocumentChunks: ctx.s.bigChunks,
      rounds: ctx.s.rounds,
      lanes: ctx.lanes,
      workflowsOpen: ctx.inflight,
      stores: ctx.stores,
      temporal: ctx.temporal,
    },
    scaling,
    ratio: ratioOf(a, b),
    sides: summaries,
    ...(pinned
      ? {
          pinned: {
            cpus: cpuSplit(),
            ratio: ratioOf(pinned[0] as SideSummary, pinned[1] as SideSummary),
            sides: pinned,
          },
        }
      : {}),
    workerMetrics: metrics,
  };
  const json = JSON.stringify(result, redactSecrets, 2);
  console.log(json);
  fs.mkdirSync(path.dirname(ctx.s.outFile), { recursive: true });
  fs.writeFileSync(ctx.s.outFile, `${json}\n`);
  console.error(`\n${renderTable(summaries, a)}\n\nratio b/a (documents/s): ${result.ratio.docsPerS}`);
  console.error(`\n${renderScaling(scaling)}`);
  if (pinned && result.pinned) {
    console.error(
      `\n${renderTable(pinned, pinned[0] as SideSummary)}\n\nratio b/a pinned (documents/s): ${result.pinned.ratio.docsPerS}`,
    );
  }
  // Timing on a shared machine is not a pass/fail matter; doing the same work is. Every side must
  // end with the same chunks and the same failed pages, or the comparison (and the pipeline) is wrong.
  for (const side of [...summaries.slice(1), ...(pinned ?? [])]) {
    if (side.chunks !== a.chunks || side.failed !== a.failed) {
      console.error(
        `bench: ${side.side} made ${side.chunks} chunks with ${side.failed} failures; ${a.side} made ${a.chunks} with ${a.failed}`,
      );
      process.exitCode = 1;
    }
  }
}

interface Accumulated {
  elapsedMs: number;
  docs: DocOutcome[];
  writes: TableWrites;
  /** CPU of the local Temporal dev server while the side's rounds ran (other users' load included). */
  serverCpuSeconds: number;
  /** CPU of the stack's Postgres (all backends) while the side's rounds ran, the stats queries included. */
  postgresCpuSeconds: number;
}

function ratioOf(a: SideSummary, b: SideSummary): { docsPerS: number; chunksPerS: number } {
  return {
    docsPerS: Number((b.docsPerS / a.docsPerS).toFixed(3)),
    chunksPerS: Number((b.chunksPerS / a.chunksPerS).toFixed(3)),
  };
}

/** Where the durable sides ran: the dev server or a cluster, by the standard TEMPORAL_* settings. */
function temporalTarget(t: TemporalConfig): { address: string; namespace: string; tls: boolean; server: string } {
  return {
    address: t.address,
    namespace: t.namespace,
    tls: t.connection.tls !== false,
    server: benchSettings().temporalServerPidFile,
  };
}

const fmtLoad = (load: number[]) => load.map((l) => l.toFixed(1)).join(' ');

/** The stores config can hold keys and passwords: the report names the adapters only. */
function redactSecrets(key: string, value: unknown): unknown {
  return /secret|password|apikey|accesskey/i.test(key) ? undefined : value;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
