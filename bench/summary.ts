import { STAGES, type Stage } from '../contracts/stages';
import { COMMITS, totalWrites, type TableWrites } from './pgWrites';
import { percentile } from './window';

export interface SideSummary {
  side: string;
  workerProcesses: number;
  documents: number;
  failed: number;
  failures: Record<string, number>;
  chunks: number;
  elapsedS: number;
  docsPerS: number;
  chunksPerS: number;
  latencyMs: { p50: number; p95: number; max: number };
  /** Mean time per document in each stage (b: activity time as the pipeline rows record it). */
  stageMsPerDoc: Record<Stage, number>;
  peakRssMB: number;
  cpuSecondsPerDoc: number;
  /** The local Temporal server's CPU per document while this side ran (shared machine: includes others' load). */
  temporalServerCpuSecondsPerDoc: number;
  /** The stack's Postgres CPU per document while this side ran (all backends). */
  postgresCpuSecondsPerDoc: number;
  pgRowsWritten: number;
  pgRowsPerChunk: number;
  /** Transactions committed per document (reads included; the stats connection's own are a handful). */
  pgCommitsPerDoc: number;
  pgWritesByTable: TableWrites;
  historyBytesPerDoc?: {
    mean: number;
    max: number;
    largestDocument: number;
    meanEvents: number;
    maxEvents: number;
    sampled: number;
  };
}

export interface SideInput {
  side: string;
  workerProcesses: number;
  elapsedMs: number;
  docs: { ms: number; chunks: number; error: string | null }[];
  stageMsTotal: Record<Stage, number>;
  processes: { peakRssBytes: number; cpuSeconds: number }[];
  writes: TableWrites;
  serverCpuSeconds: number;
  postgresCpuSeconds: number;
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

export function summarize(input: SideInput): SideSummary {
  const ok = input.docs.filter((d) => d.error === null);
  const failures: Record<string, number> = {};
  for (const d of input.docs) if (d.error !== null) failures[d.error] = (failures[d.error] ?? 0) + 1;
  const chunks = ok.reduce((sum, d) => sum + d.chunks, 0);
  const seconds = input.elapsedMs / 1000;
  const latencies = input.docs.map((d) => d.ms);
  const rows = totalWrites(input.writes);
  return {
    side: input.side,
    workerProcesses: input.workerProcesses,
    documents: input.docs.length,
    failed: input.docs.length - ok.length,
    failures,
    chunks,
    elapsedS: round(seconds),
    docsPerS: round(input.docs.length / seconds, 2),
    chunksPerS: round(chunks / seconds),
    latencyMs: {
      p50: Math.round(percentile(latencies, 50)),
      p95: Math.round(percentile(latencies, 95)),
      max: Math.round(percentile(latencies, 100)),
    },
    stageMsPerDoc: Object.fromEntries(
      STAGES.map((s) => [s, round(input.stageMsTotal[s] / Math.max(1, input.docs.length))]),
    ) as Record<Stage, number>,
    peakRssMB: Math.round(Math.max(0, ...input.processes.map((p) => p.peakRssBytes)) / 2 ** 20),
    cpuSecondsPerDoc: round(
      input.processes.reduce((sum, p) => sum + p.cpuSeconds, 0) / Math.max(1, input.docs.length),
      3,
    ),
    temporalServerCpuSecondsPerDoc: round(input.serverCpuSeconds / Math.max(1, input.docs.length), 3),
    postgresCpuSecondsPerDoc: round(input.postgresCpuSeconds / Math.max(1, input.docs.length), 3),
    pgRowsWritten: rows,
    pgRowsPerChunk: round(rows / Math.max(1, chunks), 2),
    pgCommitsPerDoc: round((input.writes[COMMITS] ?? 0) / Math.max(1, input.docs.length), 1),
    pgWritesByTable: input.writes,
  };
}

/** The short table for people, on stderr (stdout is the JSON). */
export function renderTable(sides: SideSummary[], base: SideSummary): string {
  const head = ['', ...sides.map((s) => `${s.side}`)];
  const line = (label: string, pick: (s: SideSummary) => string) => [label, ...sides.map(pick)];
  const ratio = (s: SideSummary) => (s === base ? '' : ` (${(s.docsPerS / base.docsPerS).toFixed(2)}x)`);
  const rows = [
    head,
    line('documents (failed)', (s) => `${s.documents} (${s.failed})`),
    line('chunks', (s) => String(s.chunks)),
    line('elapsed s', (s) => String(s.elapsedS)),
    line('documents/s', (s) => `${s.docsPerS}${ratio(s)}`),
    line('chunks/s', (s) => String(s.chunksPerS)),
    line('latency p50 / p95 ms', (s) => `${s.latencyMs.p50} / ${s.latencyMs.p95}`),
    ...STAGES.map((stage) => line(`  ${stage} ms/doc`, (s) => String(s.stageMsPerDoc[stage]))),
    line('peak RSS MB (per process)', (s) => String(s.peakRssMB)),
    line('CPU s/doc (measured processes)', (s) => String(s.cpuSecondsPerDoc)),
    line('Temporal server CPU s/doc', (s) => String(s.temporalServerCpuSecondsPerDoc)),
    line('Postgres server CPU s/doc', (s) => String(s.postgresCpuSecondsPerDoc)),
    line('Postgres rows written/chunk', (s) => String(s.pgRowsPerChunk)),
    line('Postgres commits/doc', (s) => String(s.pgCommitsPerDoc)),
    line('history bytes/doc (mean, max)', (s) =>
      s.historyBytesPerDoc ? `${s.historyBytesPerDoc.mean}, ${s.historyBytesPerDoc.max}` : '-',
    ),
    line('history events/doc (mean, max)', (s) =>
      s.historyBytesPerDoc ? `${s.historyBytesPerDoc.meanEvents}, ${s.historyBytesPerDoc.maxEvents}` : '-',
    ),
  ];
  const widths = head.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0))).join('  '))
    .join('\n');
}
