import os from 'node:os';
import { sql } from 'kysely';
import { createAdapters, type Adapters } from '../composition/adapters';
import { loadConfig } from '../config/config';
import { migrateToLatest } from '../db/migrate';
import { searchWithSettings } from '../search/hybridSearch';
import { resolveSearchSettings, type SearchSettings } from '../search/searchSettings';
import { hnswIndexName } from '../db/pgvector';
import { createPostgresVectorStore } from '../stores/postgresVectorStore';
import { resetBenchDatabase } from './benchDatabase';
import { writeBenchResult } from './benchResults';
import { chunkVector, BENCH_MODELS, queryWords } from './searchCorpus';
import { loadedChunks, loadSearchDataset } from './searchLoad';
import { coarseRecallAt10, exactScanMs, exactTop10, partTimes, percentile, round } from './searchMeasures';
import { filteredDatasetFigures } from './searchFiltered';
import { BENCH_FILTERS, rerankOverhead, tagBenchDocuments } from './searchFilteredSides';
import type { DocumentFilter } from '../contracts/searchFilter';

/**
 * `npm run bench:search`: the latency of hybrid search (the query embedded by the local model,
 * every list searched, fused, joined to its chunks) on one dataset of BENCH_SEARCH_CHUNKS chunks
 * (100,000) on the local profile: Postgres vectors (pgvector, an HNSW index per model) and
 * full-text search, no reranker. The chunks are loaded directly through the stores
 * (bench/searchLoad.ts) into a database of the bench's own and kept for the next run. Sides run
 * query by query, in an order that alternates: with the second dense vector, without its passage
 * windows, and with the first dense vector only, each at every `hnsw.ef_search` of
 * BENCH_SEARCH_EF (SLUICE_PGVECTOR_EF_SEARCH). Then, per ef_search, where the time goes (each part
 * alone) and the dense list's recall@10 against the exact scan; the exact dense scan on a few
 * queries; the HNSW index's size and the time to build it anew; and the same dense list on a
 * dataset that holds 1 % of the model's rows (bench/searchFiltered.ts).
 */
const TOTAL = Number(process.env.BENCH_SEARCH_CHUNKS ?? 100_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 100);
const OUT = process.env.BENCH_OUT ?? 'search.json';
const EF_SEARCH = (process.env.BENCH_SEARCH_EF ?? '40,100,200').split(',').map(Number);
const scope = { userId: 'bench-user', datasetId: `bench-search-${TOTAL}` };

function benchUrl(): string {
  const url = new URL(loadConfig().database.url);
  url.pathname = '/sluice_bench_search';
  return url.toString();
}

/** The query near chunk q's position in the dataset (bench/searchCorpus.ts queryWords). */
const queryFor = (q: number): string => queryWords((q * 7919 + 13) % TOTAL);

/** The first dense vector's HNSW index built anew (REINDEX, as after a bulk load): seconds and size. */
async function rebuildFirstIndex(adapters: Adapters): Promise<{ buildSeconds: number; indexSize: string }> {
  const name = hnswIndexName('dense_vectors', BENCH_MODELS.first);
  const started = performance.now();
  await adapters.db.connection().execute(async (conn) => {
    await sql`SET maintenance_work_mem = '1GB'`.execute(conn);
    await sql`REINDEX INDEX ${sql.id(name)}`.execute(conn);
  });
  const buildSeconds = round((performance.now() - started) / 1000);
  const { rows } = await sql<{
    size: string;
  }>`SELECT pg_size_pretty(pg_relation_size(${name}::regclass)) AS size`.execute(adapters.db);
  return { buildSeconds, indexSize: rows[0]?.size ?? '?' };
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
    const index = await rebuildFirstIndex(adapters);
    // As autovacuum leaves a dataset that has stopped changing: statistics for the planner.
    await sql`VACUUM (ANALYZE) dense_vectors, language_dense_vectors, window_dense_vectors, sparse_vectors, keyword_entries`.execute(
      adapters.db,
    );
    const atEf = (efSearch: number): Adapters => ({
      ...adapters,
      vectors: createPostgresVectorStore(adapters.db, { efSearch }),
    });
    const settings = {
      withLanguageDense: resolveSearchSettings(),
      withoutPassageWindows: resolveSearchSettings({ weights: { passage: 0 } }),
      firstDenseOnly: resolveSearchSettings({ denseModels: ['user'] }),
    };
    await tagBenchDocuments(adapters, scope);
    await sql`ANALYZE documents`.execute(adapters.db);
    const sides: { name: string; deps: Adapters; settings: SearchSettings; filter?: DocumentFilter }[] =
      EF_SEARCH.flatMap((ef) => [
        ...Object.entries(settings).map(([name, value]) => ({
          name: `${name}@ef${ef}`,
          deps: atEf(ef),
          settings: value,
        })),
        // Filtered search beside unfiltered (the default settings, second dense vector included).
        ...Object.entries(BENCH_FILTERS).map(([name, filter]) => ({
          name: `${name}@ef${ef}`,
          deps: atEf(ef),
          settings: settings.withLanguageDense,
          filter,
        })),
      ]);
    const times: Record<string, number[]> = Object.fromEntries(sides.map((side) => [side.name, []]));
    for (let q = -5; q < QUERIES; q += 1) {
      const query = queryFor(Math.abs(q));
      for (const side of q % 2 === 0 ? sides : [...sides].reverse()) {
        const start = performance.now();
        const hits = await searchWithSettings(
          side.deps,
          side.filter ? { ...scope, filter: side.filter } : scope,
          query,
          10,
          side.settings,
        );
        if (hits.length === 0) throw new Error(`no hit for "${query}"`);
        if (q >= 0) times[side.name]?.push(performance.now() - start);
      }
    }
    const targets = [11, 2222, 33333, 44444, 5555, 66666, 77777, 8888, 99999, 123].map((t) => t % TOTAL);
    const exactTop = exactTop10(TOTAL, targets);
    const partsByEf: Record<string, Record<string, number>> = {};
    const recallByEf: Record<string, number> = {};
    for (const ef of EF_SEARCH) {
      const parts: Record<string, number[]> = {};
      for (let q = 0; q < Math.min(QUERIES, 30); q += 1) {
        for (const [part, ms] of Object.entries(await partTimes(atEf(ef), scope, queryFor(q)))) {
          (parts[part] ??= []).push(ms);
        }
      }
      partsByEf[`ef${ef}`] = Object.fromEntries(Object.entries(parts).map(([p, v]) => [p, round(percentile(v, 50))]));
      recallByEf[`ef${ef}`] = round(await coarseRecallAt10(atEf(ef), scope, exactTop), 3);
    }
    const filtered = await filteredDatasetFigures(adapters, scope, TOTAL, EF_SEARCH);
    const rerank = await rerankOverhead(
      adapters,
      scope,
      Array.from({ length: 30 }, (_, q) => queryFor(q)),
    );
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
      profile: 'local (Postgres with pgvector and full-text search, USE + bge-small query embedding, no reranker)',
      models: BENCH_MODELS,
      firstDenseIndex: index,
      hybridSearch: Object.fromEntries(Object.entries(times).map(([n, v]) => [n, summary(v)])),
      partsP50MsByEf: partsByEf,
      exactDenseScanMs: exact.map((ms) => round(ms)),
      denseRecallAt10ByEf: recallByEf,
      onePercentDataset: filtered,
      filters: { filtered1pct: '1 % of the dataset (meta.bucket = 0)', filtered50pct: '50 % (meta.bucket < 50)' },
      rerankCallOverhead: rerank,
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
