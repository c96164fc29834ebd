import path from 'node:path';
import { randomUUID } from 'node:crypto';

/**
 * What one bench run does, from BENCH_* variables (bench code may read the environment; the
 * sluice settings themselves still go through config/config.ts in each process).
 */
export interface BenchSettings {
  /** Corpus pages to ingest; null = the whole manual (~1,170 pages). */
  docs: number | null;
  /** Child chunks of the one large generated document (0 = none). */
  bigChunks: number;
  /**
   * The concurrency budget both sides get: (a) runs this many documents at once; (b)'s worker
   * executes at most this many activities at once (its slot count). 0 = the worker's configured slots.
   */
  lanes: number;
  /**
   * Workflows (b) keeps open at once: more than its slots, because between two activities a
   * document waits on the server and its slot would idle. 0 = 4 × lanes.
   */
  inflight: number;
  /** Worker process counts to run (b) with; the first one is the one the ratio uses. */
  workerCounts: number[];
  /** The bench's own database: reset at the start of every run. */
  databaseUrl: string;
  /** Objects, temp files and worker logs of this run. */
  dataDir: string;
  /** Task queue of this run's workers, unique so no other worker steals its tasks. */
  taskQueue: string;
  outFile: string;
  /** Rounds the corpus is split into; sides alternate their order from round to round. */
  rounds: number;
  /** Histories fetched to measure their size (fetching all 1,000+ takes a while). */
  historySample: number;
  /** Extra node flags for the measured processes, e.g. a CPU profile (BENCH_CPU_PROFILE_DIR). */
  nodeArgs: string[];
  /**
   * BENCH_PIN=1: every side also runs pinned (bench/pinning.ts: pipelines on one half of the cores,
   * the Temporal server and Postgres on the other), and the report gives the ratio both ways.
   */
  pin: boolean;
  /**
   * The pid file (under the stack's run directory) of the Temporal server the durable sides use,
   * whose CPU the report counts: the dev server's by default, `temporal-tls.pid` when the
   * TEMPORAL_* settings point the run at the stack's mTLS cluster (BENCH_TEMPORAL_SERVER=temporal-tls).
   */
  temporalServerPidFile: 'temporal.pid' | 'temporal-tls.pid';
}

const ROOT = path.resolve(__dirname, '..');

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return value;
}

export function benchSettings(): BenchSettings {
  const runId = randomUUID().slice(0, 8);
  const docs = process.env.BENCH_DOCS ? int('BENCH_DOCS', 0) : null;
  const workerCounts = (process.env.BENCH_WORKERS ?? '1')
    .split(',')
    .map((n) => Number(n.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  return {
    docs,
    bigChunks: int('BENCH_BIG_CHUNKS', 5000),
    lanes: int('BENCH_LANES', 0),
    inflight: int('BENCH_INFLIGHT', 0),
    workerCounts: workerCounts.length > 0 ? workerCounts : [1],
    databaseUrl:
      process.env.BENCH_DATABASE_URL ??
      benchDatabaseBeside(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/sluice'),
    dataDir: path.join(ROOT, '.sluice', 'bench-runs', runId),
    taskQueue: `bench-throughput-${runId}`,
    outFile: path.join(ROOT, 'bench-results', process.env.BENCH_OUT ?? 'throughput.json'),
    rounds: Math.max(1, int('BENCH_ROUNDS', 4)),
    historySample: int('BENCH_HISTORY_SAMPLE', 100),
    nodeArgs: process.env.BENCH_CPU_PROFILE_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROFILE_DIR)}`]
      : [],
    pin: process.env.BENCH_PIN === '1',
    temporalServerPidFile: process.env.BENCH_TEMPORAL_SERVER === 'temporal-tls' ? 'temporal-tls.pid' : 'temporal.pid',
  };
}

/** `sluice_bench` on the same server as the app's database (the stack's port may differ in CI). */
function benchDatabaseBeside(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = '/sluice_bench';
  return parsed.toString();
}

/** The environment every process of the run shares: same database, objects and queue. */
export function sluiceEnv(s: BenchSettings): Record<string, string> {
  return {
    DATABASE_URL: s.databaseUrl,
    SLUICE_DATA_DIR: s.dataDir,
    // The model is fetched once by the stack script, not per bench run's data directory.
    SLUICE_MODEL_DIR: process.env.SLUICE_MODEL_DIR ?? path.join(ROOT, '.sluice', 'models'),
    SLUICE_TASK_QUEUE: s.taskQueue,
    // These benches weigh the pipeline's own cost (Temporal, checkpoints, stores) against a plain loop;
    // the second dense vector's model time would swamp it, and bench:vectorizing measures that apart.
    SLUICE_LANGUAGE_DENSE: process.env.SLUICE_LANGUAGE_DENSE ?? 'off',
    SLUICE_SWEEP_EVERY: 'off',
    SLUICE_LOG_LEVEL: 'WARN',
    // A document that fails closes its run at once instead of waiting 30 days for a retry.
    SLUICE_RETRY_WAIT: '1s',
  };
}
