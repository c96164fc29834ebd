import { sql } from 'kysely';
import { createAdapters, type Adapters } from '../composition/adapters';
import { loadConfig } from '../config/config';
import { migrateToLatest } from '../db/migrate';
import { evalDocsDir } from '../eval/retrieval/corpus';
import { loadLabels } from '../eval/retrieval/labels';
import { denseQueryText } from '../search/denseQuery';
import { createPostgresVectorStore } from '../stores/postgresVectorStore';
import { resetBenchDatabase } from './benchDatabase';
import { writeBenchResult } from './benchResults';
import { recallPassages } from './denseRecallCorpus';
import { round } from './searchMeasures';

/**
 * `npm run bench:dense-recall`: how much of the exact top 10 the Postgres dense search (pgvector's
 * HNSW index) keeps on real embeddings, per `hnsw.ef_search`. bench:search measures it on
 * generated vectors. The passages are real Debian manuals (bench/denseRecallCorpus.ts) embedded by
 * the local model (USE); the queries are every labelled question of the retrieval eval, embedded as
 * search embeds them. Each is searched through the store at every ef_search of
 * BENCH_DENSE_RECALL_EF and compared with the exact cosine scan of all passages: a returned passage
 * counts when it scores at least the exact 10th (ties are equally right; the id overlap is reported
 * beside it); with it, each ef_search's p50 / p99. The vectors are kept in a database of the bench's own for the next run.
 */
const LIMIT = Number(process.env.BENCH_DENSE_RECALL_PASSAGES ?? 1_000_000);
const EF_SEARCH = (process.env.BENCH_DENSE_RECALL_EF ?? '40,100,200,400').split(',').map(Number);
const OUT = process.env.BENCH_OUT ?? 'dense-recall.json';
const TOP = 10;
const scope = { userId: 'bench-user', datasetId: 'bench-dense-recall' };

async function storedVectors(adapters: Adapters): Promise<Map<string, number[]>> {
  const { rows } = await sql<{ chunk_id: string; vector: number[] }>`
    SELECT chunk_id, vector::real[] AS vector FROM dense_vectors WHERE dataset_id = ${scope.datasetId}`.execute(
    adapters.db,
  );
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

/** The cosine of a stored vector with the query (a zero vector: -Infinity, as it ranks last). */
function cosine(vector: number[], query: number[]): number {
  let dot = 0;
  let squares = 0;
  for (let i = 0; i < query.length; i += 1) {
    dot += (vector[i] as number) * (query[i] as number);
    squares += (vector[i] as number) ** 2;
  }
  return squares === 0 ? -Infinity : dot / Math.sqrt(squares);
}

/** The exact top 10's ids and the 10th score: a returned row scoring at least that is as near as any of them. */
function exactTop(vectors: Map<string, number[]>, query: number[]): { ids: string[]; kth: number } {
  const best: { id: string; score: number }[] = [];
  for (const [id, vector] of vectors) {
    const score = cosine(vector, query);
    if (best.length < TOP || score > (best[best.length - 1] as { score: number }).score) {
      best.push({ id, score });
      best.sort((a, b) => b.score - a.score);
      if (best.length > TOP) best.pop();
    }
  }
  return { ids: best.map((b) => b.id), kth: best[best.length - 1]?.score ?? -Infinity };
}

/** Float noise between pgvector's cosine and this one; far below any real gap between passages. */
const TIE = 1e-6;

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
    const byEf: Record<string, unknown> = {};
    for (const ef of EF_SEARCH) {
      const store = createPostgresVectorStore(adapters.db, { efSearch: ef });
      const recalls: number[] = [];
      const byId: number[] = [];
      const times: number[] = [];
      for (const [i, query] of queries.entries()) {
        const started = performance.now();
        const hits = await store.searchDense(scope, model, query, TOP);
        times.push(performance.now() - started);
        const { ids, kth } = exact[i] as { ids: string[]; kth: number };
        const found = new Set(hits.map((h) => h.chunkId));
        byId.push(ids.filter((id) => found.has(id)).length / TOP);
        // Passages of the same text (a manual's repeated notices) tie: any of them is as right as the one the exact scan kept.
        const near = hits.filter((h) => cosine(vectors.get(h.chunkId) ?? [], query) >= kth - TIE).length;
        recalls.push(Math.min(near, TOP) / TOP);
      }
      times.sort((a, b) => a - b);
      byEf[`ef${ef}`] = {
        recallAt10: round(recalls.reduce((s, r) => s + r, 0) / recalls.length, 3),
        recallAt10ById: round(byId.reduce((s, r) => s + r, 0) / byId.length, 3),
        worstQueryRecallAt10: recalls.reduce((w, r) => Math.min(w, r), 1),
        p50Ms: round(times[Math.floor(times.length / 2)] ?? 0),
        p99Ms: round(times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] ?? 0),
      };
      console.error(`ef_search ${ef}: ${JSON.stringify(byEf[`ef${ef}`])}`);
    }
    const result = {
      bench: 'dense-recall',
      store: 'Postgres, pgvector HNSW (m 16, ef_construction 64)',
      passages: vectors.size,
      queries: queries.length,
      model,
      byEfSearch: byEf,
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
