import { sql } from 'kysely';
import { createAdapters, type Adapters } from '../composition/adapters';
import { loadConfig } from '../config/config';
import { migrateToLatest } from '../db/migrate';
import { evalDocsDir } from '../eval/retrieval/corpus';
import { loadLabels } from '../eval/retrieval/labels';
import { denseQueryText } from '../search/denseQuery';
import { createCpuPool } from '../cpuPool/pool';
import { DEFAULT_PARSE_LIMITS } from '../parsers/parseLimits';
import { nearestCells } from '../stores/denseCells';
import { refreshDenseCells } from '../stores/postgresDenseCellTraining';
import { cellCountFor, decodeCentroids } from '../stores/postgresDenseCells';
import { createPostgresVectorStore } from '../stores/postgresVectorStore';
import { resetBenchDatabase } from './benchDatabase';
import { writeBenchResult } from './benchResults';
import { recallPassages } from './denseRecallCorpus';
import { round } from './searchMeasures';

/**
 * `npm run bench:dense-recall`: how much of the exact top 10 the Postgres dense search keeps on
 * real embeddings, per rerank depth. bench:search measures it on generated vectors only. The
 * passages are real Debian manuals (bench/denseRecallCorpus.ts) embedded by the local model (USE);
 * the queries are every labelled question of the retrieval eval, embedded as search embeds them.
 * Each is searched through the store (sign bits, then quantized bytes, then floats) at every depth
 * of BENCH_DENSE_RECALL_DEPTHS and compared with the exact cosine scan of all passages. The
 * passages are clustered into cells (stores/postgresDenseCells.ts) as VECTORIZING would, and each
 * depth is measured at each share of cells read of BENCH_DENSE_RECALL_SHARES (1: every cell, the
 * search without cells), with the share of passages those cells hold. The vectors are kept in a
 * database of the bench's own for the next run.
 */
const LIMIT = Number(process.env.BENCH_DENSE_RECALL_PASSAGES ?? 1_000_000);
const DEPTHS = (process.env.BENCH_DENSE_RECALL_DEPTHS ?? '50,100,250,500').split(',').map(Number);
const SHARES = (process.env.BENCH_DENSE_RECALL_SHARES ?? '1,0.5,0.25,0.125').split(',').map(Number);
const OUT = process.env.BENCH_OUT ?? 'dense-recall.json';
const TOP = 10;
const scope = { userId: 'bench-user', datasetId: 'bench-dense-recall' };

async function storedVectors(adapters: Adapters): Promise<Map<string, number[]>> {
  const { rows } = await sql<{ chunk_id: string; vector: number[] }>`
    SELECT chunk_id, vector FROM dense_vectors WHERE dataset_id = ${scope.datasetId}`.execute(adapters.db);
  return new Map(rows.map((r) => [r.chunk_id, r.vector]));
}

/** The passages' vectors as the last run stored them, or embedded and stored again into a reset database. */
async function ensureEmbedded(config: ReturnType<typeof loadConfig>, url: string, passages: string[]) {
  let adapters = createAdapters(config);
  let vectors = await storedVectors(adapters).catch(() => new Map<string, number[]>());
  if (vectors.size === passages.length) {
    // A database kept from a run of older code gains the tables and columns added since.
    await migrateToLatest(adapters.db);
    return { adapters, vectors };
  }
  await adapters.close();
  await resetBenchDatabase(url);
  adapters = createAdapters(config);
  const embedder = await adapters.embedders.forUser(scope.userId);
  const model = { model: embedder.model, dimension: embedder.dimension };
  const started = performance.now();
  for (let i = 0; i < passages.length; i += 64) {
    const batch = passages.slice(i, i + 64);
    const embedded = await embedder.embed(batch);
    const records = batch.map((_, j) => ({
      chunkId: `passage-${i + j}`,
      documentId: 'bench-dense-recall',
      vector: embedded[j] as number[],
    }));
    await adapters.vectors.upsertDense(scope, model, records);
    if ((i / 64) % 50 === 0) console.error(`embedded ${i + batch.length} of ${passages.length}`);
  }
  console.error(`embedded ${passages.length} passages in ${round((performance.now() - started) / 1000)} s`);
  await sql`VACUUM (ANALYZE) dense_vectors`.execute(adapters.db);
  vectors = await storedVectors(adapters);
  return { adapters, vectors };
}

function exactTop(vectors: Map<string, number[]>, query: number[]): string[] {
  const best: { id: string; score: number }[] = [];
  for (const [id, vector] of vectors) {
    let dot = 0;
    let squares = 0;
    for (let i = 0; i < query.length; i += 1) {
      dot += (vector[i] as number) * (query[i] as number);
      squares += (vector[i] as number) ** 2;
    }
    const score = squares === 0 ? -Infinity : dot / Math.sqrt(squares);
    if (best.length < TOP || score > (best[best.length - 1] as { score: number }).score) {
      best.push({ id, score });
      best.sort((a, b) => b.score - a.score);
      if (best.length > TOP) best.pop();
    }
  }
  return best.map((b) => b.id);
}

/** The passages' cells as VECTORIZING trains them (on a CPU pool), their centroids and sizes. */
async function trainCells(adapters: Adapters, model: { model: string; dimension: number }) {
  const cpu = createCpuPool({ threads: 2, limits: DEFAULT_PARSE_LIMITS });
  const started = performance.now();
  try {
    await sql`DELETE FROM dense_cells`.execute(adapters.db);
    await refreshDenseCells(adapters.db, 'dense_vectors', scope, model, cpu, { minRows: 1, probeShare: 1 });
  } finally {
    await cpu.close();
  }
  const trainSeconds = round((performance.now() - started) / 1000);
  const row = await adapters.db.selectFrom('dense_cells').selectAll().executeTakeFirstOrThrow();
  const { rows } = await sql<{ cell: number; n: string }>`
    SELECT cell, count(*) AS n FROM dense_vectors GROUP BY cell`.execute(adapters.db);
  console.error(
    `trained ${row.cell_count} cells (${cellCountFor(row.trained_rows, model.dimension)} asked) in ${trainSeconds} s`,
  );
  return {
    centroids: decodeCentroids(row.centroids, row.cell_count, model.dimension),
    sizes: new Map(rows.map((r) => [r.cell, Number(r.n)])),
    trainSeconds,
  };
}

async function main(): Promise<void> {
  const base = loadConfig();
  const url = new URL(base.database.url);
  url.pathname = '/sluice_bench_dense_recall';
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url.toString(),
    SLUICE_PROFILE: 'local',
    SLUICE_EMBEDDER: 'local-model',
  });
  const passages = recallPassages(evalDocsDir(base.dataDir), LIMIT);
  const { adapters, vectors } = await ensureEmbedded(config, url.toString(), passages);
  try {
    const embedder = await adapters.embedders.forUser(scope.userId);
    const model = { model: embedder.model, dimension: embedder.dimension };
    const questions = loadLabels().map((l) => l.question);
    const queries = await Promise.all(
      questions.map(async (q) => (await embedder.embed([denseQueryText(q)]))[0] as number[]),
    );
    const exact = queries.map((q) => exactTop(vectors, q));
    const cells = await trainCells(adapters, model);
    const byShare: Record<string, unknown> = {};
    for (const share of SHARES) {
      const recallByDepth: Record<string, number> = {};
      const worstByDepth: Record<string, number> = {};
      for (const depth of DEPTHS) {
        const store = createPostgresVectorStore(adapters.db, {
          rerankCandidates: depth,
          cells: { minRows: 1, probeShare: share },
        });
        const recalls: number[] = [];
        for (const [i, query] of queries.entries()) {
          const found = new Set((await store.searchDense(scope, model, query, TOP)).map((h) => h.chunkId));
          recalls.push((exact[i] as string[]).filter((id) => found.has(id)).length / TOP);
        }
        recallByDepth[depth] = round(recalls.reduce((s, r) => s + r, 0) / recalls.length, 3);
        worstByDepth[depth] = recalls.reduce((w, r) => Math.min(w, r), 1);
      }
      const read = queries.map((q) =>
        nearestCells(cells.centroids, q, Math.ceil(cells.centroids.count * share)).reduce(
          (n, cell) => n + (cells.sizes.get(cell) ?? 0),
          0,
        ),
      );
      byShare[share] = {
        recallAt10ByDepth: recallByDepth,
        worstQueryRecallAt10ByDepth: worstByDepth,
        meanShareOfPassagesRead: round(read.reduce((s, n) => s + n, 0) / read.length / vectors.size, 3),
      };
      console.error(`cells read ${share}: ${JSON.stringify(byShare[share])}`);
    }
    const result = {
      bench: 'dense-recall',
      passages: vectors.size,
      queries: queries.length,
      model,
      cells: { count: cells.centroids.count, trainSeconds: cells.trainSeconds },
      byShareOfCellsRead: byShare,
      depthAsShareOfPassages: Object.fromEntries(DEPTHS.map((d) => [d, round(d / vectors.size, 4)])),
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
