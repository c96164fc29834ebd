import os from 'node:os';
import { sql, type Kysely } from 'kysely';
import { createAdapters } from '../composition/adapters';
import { loadConfig } from '../config/config';
import type { Database } from '../db/database';
import { sparseQueryFromTokens } from '../sparse/sparseVector';
import type { SparseVector } from '../contracts/chunk';
import type { TenantScope } from '../stores/ports';
import { tokenize } from '../tokenizer/tokenize';
import { writeBenchResult } from './benchResults';
import { queryWords } from './searchCorpus';
import { loadedChunks } from './searchLoad';
import { percentile, round } from './searchMeasures';

/**
 * `npm run bench:sparsevec`: whether pgvector's `sparsevec` with an HNSW index beats the sparse
 * list's GIN path, on the dataset bench:search loaded (run that first). The sparse list weights a
 * query term by its IDF in the tenant's dataset at query time, so the sparsevec side counts each
 * query term's document frequency (through the GIN index, as the GIN path does), folds the IDF into
 * the query's weights and asks the HNSW index for the largest inner products within the dataset
 * (iterative scan). Term ids are 31-bit hashes and a sparsevec holds at most 10^9 dimensions, so
 * ids are folded modulo a prime below that. Reported: p50 / p99 of each path, and how much of the
 * GIN path's top 10 the sparsevec side returns. The column and index are dropped at the end.
 */
const TOTAL = Number(process.env.BENCH_SEARCH_CHUNKS ?? 100_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 100);
const EF_SEARCH = (process.env.BENCH_SEARCH_EF ?? '40,100,200').split(',').map(Number);
const OUT = process.env.BENCH_OUT ?? 'sparsevec.json';
const DIMENSIONS = 1_000_000_000;
const FOLD = 999_999_937;
const scope: TenantScope = { userId: 'bench-user', datasetId: `bench-search-${TOTAL}` };

function benchUrl(): string {
  const url = new URL(loadConfig().database.url);
  url.pathname = '/sluice_bench_search';
  return url.toString();
}

async function addSparsevecColumn(db: Kysely<Database>): Promise<{ fillSeconds: number; buildSeconds: number }> {
  await sql`ALTER TABLE sparse_vectors ADD COLUMN IF NOT EXISTS bench_sv sparsevec(${sql.lit(DIMENSIONS)})`.execute(db);
  const t0 = performance.now();
  await sql`
    UPDATE sparse_vectors s SET bench_sv = (
      SELECT ('{' || string_agg(k::text || ':' || w::text, ',' ORDER BY k) || '}/' || ${sql.lit(DIMENSIONS)})::sparsevec
        FROM (SELECT (i::bigint % ${sql.lit(FOLD)}) + 1 AS k, sum(w) AS w
                FROM unnest(s.indices, s.weights) AS u(i, w) GROUP BY 1) t)
     WHERE s.dataset_id = ${scope.datasetId}`.execute(db);
  const t1 = performance.now();
  await db.connection().execute(async (conn) => {
    await sql`SET maintenance_work_mem = '1GB'`.execute(conn);
    await sql`CREATE INDEX IF NOT EXISTS bench_sparsevec_hnsw ON sparse_vectors USING hnsw (bench_sv sparsevec_ip_ops)`.execute(
      conn,
    );
  });
  const t2 = performance.now();
  await sql`ANALYZE sparse_vectors`.execute(db);
  return { fillSeconds: round((t1 - t0) / 1000), buildSeconds: round((t2 - t1) / 1000) };
}

/** The sparsevec side: IDF from the GIN index's document frequencies, then the HNSW walk. */
async function searchSparsevec(db: Kysely<Database>, query: SparseVector, ef: number, limit: number) {
  const terms = sql`${sql.val(query.indices)}::int[]`;
  const { rows: df } = await sql<{ i: number; df: string; n: string }>`
    SELECT q.i, (SELECT count(*) FROM sparse_vectors s
                  WHERE s.user_id = ${scope.userId} AND s.dataset_id = ${scope.datasetId} AND s.indices @> ARRAY[q.i]) AS df,
           (SELECT count(*) FROM sparse_vectors s WHERE s.user_id = ${scope.userId} AND s.dataset_id = ${scope.datasetId}) AS n
      FROM unnest(${terms}) AS q(i)`.execute(db);
  const weights = new Map<number, number>();
  query.indices.forEach((term, j) => {
    const row = df.find((r) => r.i === term);
    const n = Number(row?.n ?? 0);
    const d = Number(row?.df ?? 0);
    if (d === 0) return;
    const key = (term % FOLD) + 1;
    const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
    weights.set(key, (weights.get(key) ?? 0) + (query.values[j] ?? 0) * idf);
  });
  if (weights.size === 0) return [];
  const literal = `{${[...weights.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, w]) => `${k}:${w}`)
    .join(',')}}/${DIMENSIONS}`;
  return db.connection().execute(async (conn) => {
    await sql`SET hnsw.ef_search = ${sql.lit(ef)}`.execute(conn);
    await sql`SET hnsw.iterative_scan = relaxed_order`.execute(conn);
    const { rows } = await sql<{ chunk_id: string }>`
      SELECT chunk_id FROM sparse_vectors
       WHERE user_id = ${scope.userId} AND dataset_id = ${scope.datasetId}
       ORDER BY bench_sv <#> ${literal}::sparsevec LIMIT ${limit}`.execute(conn);
    return rows.map((r) => r.chunk_id);
  });
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const config = loadConfig({ ...process.env, DATABASE_URL: benchUrl(), SLUICE_PROFILE: 'local' });
  const adapters = createAdapters(config);
  try {
    if ((await loadedChunks(adapters, scope)) !== TOTAL)
      throw new Error(`run bench:search with BENCH_SEARCH_CHUNKS=${TOTAL} first: its dataset is not loaded`);
    const build = await addSparsevecColumn(adapters.db);
    const queries = Array.from({ length: QUERIES }, (_, q) =>
      sparseQueryFromTokens(tokenize(queryWords((q * 7919 + 13) % TOTAL))),
    );
    const gin: number[] = [];
    const exact: Set<string>[] = [];
    const sides = Object.fromEntries(EF_SEARCH.map((ef) => [ef, { times: [] as number[], found: 0 }]));
    for (const query of queries) {
      const started = performance.now();
      const hits = await adapters.vectors.searchSparse(scope, query, 50);
      gin.push(performance.now() - started);
      const top = new Set(hits.slice(0, 10).map((h) => h.chunkId));
      exact.push(top);
      for (const ef of EF_SEARCH) {
        const side = sides[ef];
        if (!side) continue;
        const t0 = performance.now();
        const ids = await searchSparsevec(adapters.db, query, ef, 50);
        side.times.push(performance.now() - t0);
        side.found += ids.slice(0, 10).filter((id) => top.has(id)).length;
      }
    }
    const expected = exact.reduce((n, top) => n + top.size, 0);
    const { rows } = await sql<{ gin: string; hnsw: string }>`
      SELECT pg_size_pretty(pg_relation_size('sparse_vectors_indices_gin'::regclass)) AS gin,
             pg_size_pretty(pg_relation_size('bench_sparsevec_hnsw'::regclass)) AS hnsw`
      .execute(adapters.db)
      .catch(() => ({ rows: [] as { gin: string; hnsw: string }[] }));
    writeBenchResult(OUT, {
      bench: 'sparsevec',
      chunks: TOTAL,
      queries: QUERIES,
      sparsevec: { ...build, indexSizes: rows[0] ?? null },
      ginPath: { p50Ms: round(percentile(gin, 50)), p99Ms: round(percentile(gin, 99)) },
      sparsevecByEf: Object.fromEntries(
        Object.entries(sides).map(([ef, side]) => [
          `ef${ef}`,
          {
            p50Ms: round(percentile(side.times, 50)),
            p99Ms: round(percentile(side.times, 99)),
            recallOfGinTop10: round(side.found / Math.max(1, expected), 3),
          },
        ]),
      ),
      loadAverage: { before: loadBefore.map((l) => round(l, 2)), after: os.loadavg().map((l) => round(l, 2)) },
      cores: os.availableParallelism(),
    });
  } finally {
    await sql`DROP INDEX IF EXISTS bench_sparsevec_hnsw`.execute(adapters.db);
    await sql`ALTER TABLE sparse_vectors DROP COLUMN IF EXISTS bench_sv`.execute(adapters.db);
    await adapters.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
