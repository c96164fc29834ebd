import fs from 'node:fs';
import os from 'node:os';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Pool } from 'pg';
import { createAdapters } from '../composition/adapters';
import { loadConfig } from '../config/config';
import type { Database } from '../db/database';
import { DEFAULT_HNSW_GRAPH, ensureHnswIndex, hnswIndexName, type HnswGraph } from '../db/pgvector';
import { denseQueryText } from '../search/denseQuery';
import { createPostgresVectorStore } from '../stores/postgresVectorStore';
import type { TenantScope } from '../stores/ports';
import { tokenize } from '../tokenizer/tokenize';
import { resetBenchDatabase } from './benchDatabase';
import { writeBenchResult } from './benchResults';
import { BENCH_MODELS, chunkVector, queryVectorNear, queryWords } from './searchCorpus';
import { copyRows, int4Field, textField, vectorField } from './searchDenseCopy';
import { denseLatencies, ExactTop10, recallAt10, type DenseSearch } from './searchDenseOnlyMeasures';
import { round } from './searchMeasures';

/**
 * `npm run bench:search-dense`: the first dense list alone at BENCH_SEARCH_CHUNKS rows (1,000,000),
 * which bench/search.ts cannot load in useful time (every table, through the stores). Only
 * dense_vectors is written (the unfiltered dense query reads no other table), by binary COPY
 * (bench/searchDenseCopy.ts) with no HNSW index, which is then built once and timed, as after a
 * bulk load (BENCH_MAINTENANCE_WORK_MEM, BENCH_MAINTENANCE_WORKERS). Beside it a second tenant's
 * dataset of 1 % as many rows of the same model (bench/searchFiltered.ts). Measured per ef_search
 * of BENCH_SEARCH_EF: p50 / p99 of the dense list (50 rows, as bench/search.ts times it) for queries
 * near chunks (bench/searchCorpus.ts queryVectorNear) and for query texts embedded by the local
 * model; recall@10 of both kinds against the exact top 10 (computed as the rows are written); the
 * 1 % dataset's p50 / p99 and recall. The queries and exact tops are also written to
 * BENCH_SEARCH_QUERY_CACHE when set, for another side to search the same rows with. The graph is
 * built with BENCH_HNSW_M and BENCH_HNSW_EF_CONSTRUCTION (pgvector's 16 and 64 by default). With
 * BENCH_SEARCH_REUSE=1 the rows and HNSW index a previous run left are searched again (more
 * ef_search values, or a graph built by hand): the exact tops come from the same generated
 * vectors, nothing is loaded or built.
 */
const TOTAL = Number(process.env.BENCH_SEARCH_CHUNKS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 100);
const RECALL_QUERIES = Number(process.env.BENCH_SEARCH_RECALL_QUERIES ?? 50);
const FILTERED_QUERIES = 50;
const EF_SEARCH = (process.env.BENCH_SEARCH_EF ?? '100,400').split(',').map(Number);
const DATABASE = process.env.BENCH_SEARCH_DATABASE ?? 'sluice_bench_dense_only';
const OUT = process.env.BENCH_OUT ?? 'search-dense-only.json';
const MAINTENANCE_WORK_MEM = process.env.BENCH_MAINTENANCE_WORK_MEM ?? '2GB';
const MAINTENANCE_WORKERS = Number(process.env.BENCH_MAINTENANCE_WORKERS ?? os.availableParallelism() - 1);
const GRAPH: HnswGraph = {
  m: Number(process.env.BENCH_HNSW_M ?? DEFAULT_HNSW_GRAPH.m),
  efConstruction: Number(process.env.BENCH_HNSW_EF_CONSTRUCTION ?? DEFAULT_HNSW_GRAPH.efConstruction),
};
const REUSE = process.env.BENCH_SEARCH_REUSE === '1';
const model = BENCH_MODELS.first;
const large: TenantScope = { userId: 'bench-user', datasetId: `bench-search-${TOTAL}` };
const small: TenantScope = { userId: 'bench-other-user', datasetId: `${large.datasetId}-one-percent` };
const SMALL = Math.max(20, Math.round(TOTAL / 100));
const COLUMNS = ['chunk_id', 'document_id', 'user_id', 'dataset_id', 'model', 'dimension', 'vector'];

const seconds = (since: number): number => round((performance.now() - since) / 1000);
const target = (q: number): number => (q * 7919 + 13) % TOTAL;

/** The dataset's rows and the small dataset's, in binary COPY form, each offered to the exact tops on its way. */
function* denseRows(exactLarge: ExactTop10, exactSmall: ExactTop10): Generator<Buffer[]> {
  const row = (scope: TenantScope, id: string, documentId: string, vector: number[]) => [
    ...[id, documentId, scope.userId, scope.datasetId, model.model].map(textField),
    int4Field(model.dimension),
    vectorField(vector),
  ];
  for (let i = 0; i < TOTAL; i += 1) {
    const vector = chunkVector(i, model.dimension);
    exactLarge.offer(`bench-${i}`, vector);
    yield row(large, `bench-${i}`, `bench-doc-${Math.floor(i / 1000)}`, vector);
    if ((i + 1) % 100_000 === 0) console.error(`written ${i + 1} of ${TOTAL} rows`);
  }
  for (let i = 0; i < SMALL; i += 1) {
    const vector = chunkVector(TOTAL + i, model.dimension);
    exactSmall.offer(`bench-small-${i}`, vector);
    yield row(small, `bench-small-${i}`, 'bench-small', vector);
  }
}

/** The HNSW index built on the loaded rows (one connection, so its settings hold): seconds, size and pgvector's notices. */
async function buildIndex(url: string) {
  const pool = new Pool({ connectionString: url, max: 1 });
  const notices: string[] = [];
  pool.on('connect', (client) => client.on('notice', (notice) => notices.push(notice.message ?? '')));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  try {
    // The table's parallel_workers = 0 (migration 20261207T0200) would keep the build to one process.
    await sql`ALTER TABLE dense_vectors RESET (parallel_workers)`.execute(db);
    await sql`SELECT set_config('maintenance_work_mem', ${MAINTENANCE_WORK_MEM}, false),
                     set_config('max_parallel_maintenance_workers', ${String(MAINTENANCE_WORKERS)}, false)`.execute(db);
    const started = performance.now();
    await ensureHnswIndex(db, new Set(), 'dense_vectors', model, GRAPH);
    const buildSeconds = seconds(started);
    await sql`ALTER TABLE dense_vectors SET (parallel_workers = 0)`.execute(db);
    const { rows } = await sql<{ bytes: number; size: string; table: string }>`
      SELECT pg_relation_size(${hnswIndexName('dense_vectors', model)}::regclass)::float8 AS bytes,
             pg_size_pretty(pg_relation_size(${hnswIndexName('dense_vectors', model)}::regclass)) AS size,
             pg_size_pretty(pg_total_relation_size('dense_vectors')) AS table`.execute(db);
    const settings = { maintenanceWorkMem: MAINTENANCE_WORK_MEM, maxParallelMaintenanceWorkers: MAINTENANCE_WORKERS };
    return {
      buildSeconds,
      indexBytes: rows[0]?.bytes,
      indexSize: rows[0]?.size,
      settings,
      notices,
      table: rows[0]?.table,
    };
  } finally {
    await db.destroy();
  }
}

/** The HNSW indexes already on dense_vectors: their definitions (with the graph's parameters) and sizes. */
async function existingIndexes(db: Kysely<Database>) {
  const { rows } = await sql<{ name: string; definition: string; size: string }>`
    SELECT indexname AS name, indexdef AS definition, pg_size_pretty(pg_relation_size(indexname::regclass)) AS size
      FROM pg_indexes WHERE tablename = 'dense_vectors' AND indexdef LIKE '%USING hnsw%'`.execute(db);
  if (rows.length === 0)
    throw new Error('BENCH_SEARCH_REUSE=1 but no HNSW index on dense_vectors: run without it first');
  return { reused: rows };
}

async function main(): Promise<void> {
  const url = Object.assign(new URL(loadConfig().database.url), { pathname: `/${DATABASE}` }).toString();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    SLUICE_PROFILE: 'local',
    SLUICE_EMBEDDER: 'local-model',
  });
  if (!REUSE) await resetBenchDatabase(url);
  const adapters = createAdapters(config);
  try {
    const near = Array.from({ length: QUERIES }, (_, q) => queryVectorNear(target(q), model.dimension));
    const embedder = await adapters.embedders.forUser(large.userId);
    const texts = Array.from({ length: QUERIES }, (_, q) => queryWords(target(q)));
    const embedded = await embedder.embed(texts.map((text) => denseQueryText(text, tokenize(text))));
    const exactNear = new ExactTop10(near.slice(0, RECALL_QUERIES));
    const exactEmbedded = new ExactTop10(embedded.slice(0, RECALL_QUERIES));
    const exactSmall = new ExactTop10(near.slice(0, FILTERED_QUERIES));
    const both = { offer: (id: string, v: number[]) => (exactNear.offer(id, v), exactEmbedded.offer(id, v)) };
    const loadStarted = performance.now();
    const rows = denseRows(both as ExactTop10, exactSmall);
    if (REUSE) for (const row of rows) void row;
    else await copyRows(url, 'dense_vectors', COLUMNS, rows);
    const loadSeconds = REUSE ? null : seconds(loadStarted);
    console.error(`${REUSE ? 'exact tops of' : 'loaded'} ${TOTAL} + ${SMALL} rows in ${seconds(loadStarted)} s`);
    const exact = { near: exactNear.top(), embedded: exactEmbedded.top(), small: exactSmall.top() };
    if (process.env.BENCH_SEARCH_QUERY_CACHE)
      fs.writeFileSync(process.env.BENCH_SEARCH_QUERY_CACHE, JSON.stringify({ total: TOTAL, near, embedded, exact }));
    const index = REUSE ? await existingIndexes(adapters.db) : await buildIndex(url);
    console.error(`HNSW index: ${JSON.stringify(index)}`);
    const vacuumStarted = performance.now();
    await sql`VACUUM (ANALYZE) dense_vectors`.execute(adapters.db);
    const vacuumSeconds = seconds(vacuumStarted);
    const atEf = (ef: number): DenseSearch => {
      const store = createPostgresVectorStore(adapters.db, { efSearch: ef });
      return (scope, vector, limit) => store.searchDense(scope, model, vector, limit);
    };
    const sides = Object.fromEntries(
      EF_SEARCH.flatMap((ef) => [
        [`nearChunk@ef${ef}`, { search: atEf(ef), scope: large, queries: near }],
        [`embeddedText@ef${ef}`, { search: atEf(ef), scope: large, queries: embedded }],
      ]),
    );
    const denseList = await denseLatencies(sides);
    const recall: Record<string, unknown> = {};
    const onePercent: Record<string, unknown> = { rowsOfTheModel: TOTAL + SMALL, datasetRows: SMALL };
    for (const ef of EF_SEARCH) {
      recall[`nearChunk@ef${ef}`] = await recallAt10(atEf(ef), large, near, exact.near);
      recall[`embeddedText@ef${ef}`] = await recallAt10(atEf(ef), large, embedded, exact.embedded);
      onePercent[`ef${ef}`] = await recallAt10(atEf(ef), small, near, exact.small);
    }
    writeBenchResult(OUT, {
      bench: 'search-dense-only',
      side: `pgvector HNSW${REUSE ? ' (as left by an earlier run)' : ` (m ${GRAPH.m}, ef_construction ${GRAPH.efConstruction})`}, iterative scan relaxed_order`,
      rows: TOTAL,
      queries: QUERIES,
      model,
      loadSeconds,
      index,
      vacuumAnalyzeSeconds: vacuumSeconds,
      denseListLimit50: denseList,
      recallAgainstExactTop10: recall,
      onePercentDataset: onePercent,
      cores: os.availableParallelism(),
      loadAverageAfter: os.loadavg().map((l) => round(l, 2)),
    });
  } finally {
    await adapters.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
