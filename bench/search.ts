import os from 'node:os';
import { sql } from 'kysely';
import { createAdapters, type Adapters } from '../composition/adapters';
import { loadConfig } from '../config/config';
import { migrateToLatest } from '../db/migrate';
import { searchWithSettings } from '../search/hybridSearch';
import { resolveSearchSettings, type SearchSettings } from '../search/searchSettings';
import { createCpuPool } from '../cpuPool/pool';
import { DEFAULT_DENSE_CELL_PROBE_SHARE } from '../contracts/denseRerank';
import { DEFAULT_PARSE_LIMITS } from '../parsers/parseLimits';
import { createPostgresVectorStore } from '../stores/postgresVectorStore';
import { resetBenchDatabase } from './benchDatabase';
import { writeBenchResult } from './benchResults';
import { chunkVector, BENCH_MODELS, queryWords } from './searchCorpus';
import { loadedChunks, loadSearchDataset } from './searchLoad';
import { coarseRecallAt10, exactScanMs, exactTop10, partTimes, percentile, round } from './searchMeasures';

/**
 * `npm run bench:search`: the latency of hybrid search (the query embedded by the local model,
 * every list searched, fused, joined to its chunks) on one dataset of BENCH_SEARCH_CHUNKS chunks
 * (100,000) on the local profile: Postgres vectors and full-text search, no reranker. The chunks
 * are loaded directly through the stores (bench/searchLoad.ts) into a database of the bench's own
 * and kept for the next run. Sides run query by query, in an order that alternates: with the second
 * dense vector and without it, each at every rerank depth of BENCH_SEARCH_DEPTHS (how many rows
 * the dense lists' sign-bit pass hands to the exact cosine), and each reading the nearest
 * BENCH_SEARCH_CELL_SHARE of the dense cells (stores/postgresDenseCells.ts, trained as VECTORIZING
 * trains them) and reading every cell (as without cells). Then, per depth, where the time goes
 * (each part alone) and the coarse pass's recall@10 against the exact scan; and the old exact dense
 * scan on a few queries.
 */
const TOTAL = Number(process.env.BENCH_SEARCH_CHUNKS ?? 100_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 100);
const OUT = process.env.BENCH_OUT ?? 'search.json';
const DEPTHS = (process.env.BENCH_SEARCH_DEPTHS ?? '1000,500').split(',').map(Number);
const CELL_SHARE = Number(process.env.BENCH_SEARCH_CELL_SHARE ?? DEFAULT_DENSE_CELL_PROBE_SHARE);
const scope = { userId: 'bench-user', datasetId: `bench-search-${TOTAL}` };

function benchUrl(): string {
  const url = new URL(loadConfig().database.url);
  url.pathname = '/sluice_bench_search';
  return url.toString();
}

/** The query near chunk q's position in the dataset (bench/searchCorpus.ts queryWords). */
const queryFor = (q: number): string => queryWords((q * 7919 + 13) % TOTAL);

/** Trains the dense cells of every model when due, as VECTORIZING does; the seconds it took. */
async function trainCells(adapters: Adapters): Promise<number> {
  const cpu = createCpuPool({ threads: os.availableParallelism(), limits: DEFAULT_PARSE_LIMITS });
  const started = performance.now();
  try {
    await adapters.vectors.maintainDenseIndex?.(scope, BENCH_MODELS.first, 'first', cpu);
    for (const model of [BENCH_MODELS.en, BENCH_MODELS.zh]) {
      await adapters.vectors.maintainDenseIndex?.(scope, model, 'language', cpu);
    }
  } finally {
    await cpu.close();
  }
  return round((performance.now() - started) / 1000);
}

/** The dataset as the last run left it, or loaded again (into a reset database) when it is not complete. */
async function ensureLoaded(config: ReturnType<typeof loadConfig>, url: string): Promise<void> {
  const probe = createAdapters(config);
  let loaded = 0;
  try {
    await migrateToLatest(probe.db);
    loaded = await loadedChunks(probe, scope);
  } catch {
    loaded = -1;
  } finally {
    await probe.close();
  }
  if (loaded === TOTAL) return;
  await resetBenchDatabase(url);
  const loader = createAdapters(config);
  try {
    const started = performance.now();
    await loadSearchDataset(loader, scope, TOTAL, (line) => console.error(line));
    console.error(`loaded ${TOTAL} chunks in ${round((performance.now() - started) / 1000)} s`);
  } finally {
    await loader.close();
  }
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const url = benchUrl();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    SLUICE_PROFILE: 'local',
    SLUICE_EMBEDDER: 'local-model',
    SLUICE_LANGUAGE_DENSE: 'on',
  });
  await ensureLoaded(config, url);
  const adapters = createAdapters(config);
  try {
    const cellTrainingSeconds = await trainCells(adapters);
    // As autovacuum leaves a dataset that has stopped changing (and as a migration's rewrite needs):
    // pages marked all-visible, so the dense lists' first pass reads their covering index alone.
    await sql`VACUUM (ANALYZE) dense_vectors, language_dense_vectors, window_dense_vectors, sparse_vectors, keyword_entries`.execute(
      adapters.db,
    );
    const atDepth = (depth: number, probeShare = CELL_SHARE): Adapters => ({
      ...adapters,
      vectors: createPostgresVectorStore(adapters.db, { rerankCandidates: depth, cells: { probeShare } }),
    });
    const settings = {
      withLanguageDense: resolveSearchSettings(),
      withoutPassageWindows: resolveSearchSettings({ weights: { passage: 0 } }),
      firstDenseOnly: resolveSearchSettings({ denseModels: ['user'] }),
    };
    const sides: { name: string; deps: Adapters; settings: SearchSettings }[] = DEPTHS.flatMap((depth) =>
      [CELL_SHARE, 1].flatMap((share) =>
        Object.entries(settings).map(([name, value]) => ({
          name: `${name}@${depth}${share === 1 ? ',everyCell' : ''}`,
          deps: atDepth(depth, share),
          settings: value,
        })),
      ),
    );
    const times: Record<string, number[]> = Object.fromEntries(sides.map((side) => [side.name, []]));
    for (let q = -5; q < QUERIES; q += 1) {
      const query = queryFor(Math.abs(q));
      for (const side of q % 2 === 0 ? sides : [...sides].reverse()) {
        const start = performance.now();
        const hits = await searchWithSettings(side.deps, scope, query, 10, side.settings);
        if (hits.length === 0) throw new Error(`no hit for "${query}"`);
        if (q >= 0) times[side.name]?.push(performance.now() - start);
      }
    }
    const targets = [11, 2222, 33333, 44444, 5555, 66666, 77777, 8888, 99999, 123].map((t) => t % TOTAL);
    const exactTop = exactTop10(TOTAL, targets);
    const partsByDepth: Record<string, Record<string, number>> = {};
    const recallByDepth: Record<string, number> = {};
    for (const depth of DEPTHS) {
      for (const share of [CELL_SHARE, 1]) {
        const name = `${depth}${share === 1 ? ',everyCell' : ''}`;
        const parts: Record<string, number[]> = {};
        for (let q = 0; q < Math.min(QUERIES, 30); q += 1) {
          for (const [part, ms] of Object.entries(await partTimes(atDepth(depth, share), scope, queryFor(q)))) {
            (parts[part] ??= []).push(ms);
          }
        }
        partsByDepth[name] = Object.fromEntries(Object.entries(parts).map(([p, v]) => [p, round(percentile(v, 50))]));
        recallByDepth[name] = round(await coarseRecallAt10(atDepth(depth, share), scope, exactTop), 3);
      }
    }
    const exact: number[] = [];
    for (let q = 0; q < 3; q += 1) exact.push(await exactScanMs(adapters, scope, chunkVector(q * 31, 512)));
    const { rows } = await sql<{
      n: string;
    }>`SELECT pg_size_pretty(pg_total_relation_size('dense_vectors')) AS n`.execute(adapters.db);
    const summary = (values: number[]) => ({
      p50Ms: round(percentile(values, 50)),
      p99Ms: round(percentile(values, 99)),
    });
    const result = {
      bench: 'search',
      chunks: TOTAL,
      queries: QUERIES,
      profile: 'local (Postgres vectors and full-text search, USE + bge-small query embedding, no reranker)',
      models: BENCH_MODELS,
      cellShareRead: CELL_SHARE,
      cellTrainingSeconds,
      hybridSearch: Object.fromEntries(Object.entries(times).map(([n, v]) => [n, summary(v)])),
      partsP50MsByDepth: partsByDepth,
      exactDenseScanMs: exact.map((ms) => round(ms)),
      coarsePassRecallAt10ByDepth: recallByDepth,
      denseVectorsTable: rows[0]?.n,
      loadAverage: { before: loadBefore.map((l) => round(l, 2)), after: os.loadavg().map((l) => round(l, 2)) },
      cores: os.availableParallelism(),
    };
    writeBenchResult(OUT, result);
  } finally {
    await adapters.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
