import { sql } from 'kysely';
import type { Adapters } from '../composition/adapters';
import type { TenantScope } from '../stores/ports';
import { createPostgresVectorStore } from '../stores/postgresVectorStore';
import { BENCH_MODELS, chunkVector, queryVectorNear } from './searchCorpus';
import { percentile, round } from './searchMeasures';

const QUERIES = 50;

/**
 * The first dense list on a dataset that holds 1 % of the model's rows: a second tenant's dataset of
 * total / 100 chunks beside the bench's, whose vectors come from the same clusters. Each query is
 * near one of the large dataset's chunks, so the nearest rows the HNSW walk meets are nearly all
 * filtered out: the case the iterative scan exists for. Per ef_search: p50 / p99 of the dense list
 * alone, the share of queries that got their full 10, and recall@10 against the exact scan of the
 * small dataset.
 */
export async function filteredDatasetFigures(
  adapters: Adapters,
  large: TenantScope,
  total: number,
  efSearch: number[],
): Promise<Record<string, unknown>> {
  const small: TenantScope = { userId: 'bench-other-user', datasetId: `${large.datasetId}-one-percent` };
  const count = Math.max(20, Math.round(total / 100));
  const model = BENCH_MODELS.first;
  const records = Array.from({ length: count }, (_, i) => ({
    chunkId: `bench-small-${i}`,
    documentId: 'bench-small',
    vector: chunkVector(total + i, model.dimension),
  }));
  const { rows } = await sql<{ n: string }>`
    SELECT count(*) AS n FROM dense_vectors WHERE dataset_id = ${small.datasetId}`.execute(adapters.db);
  if (Number(rows[0]?.n ?? 0) !== count) await adapters.vectors.upsertDense(small, model, records);
  await sql`ANALYZE dense_vectors`.execute(adapters.db);
  const queries = Array.from({ length: QUERIES }, (_, q) => queryVectorNear((q * 7919 + 13) % total, model.dimension));
  const exact = queries.map(
    (query) =>
      new Set(
        records
          .map((r) => ({ id: r.chunkId, score: r.vector.reduce((s, v, i) => s + v * (query[i] ?? 0), 0) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, 10)
          .map((r) => r.id),
      ),
  );
  const figures: Record<string, unknown> = { rowsOfTheModel: total + count, datasetRows: count };
  for (const ef of efSearch) {
    const store = createPostgresVectorStore(adapters.db, { efSearch: ef });
    const times: number[] = [];
    let full = 0;
    let found = 0;
    for (const [q, query] of queries.entries()) {
      const started = performance.now();
      const hits = await store.searchDense(small, model, query, 10);
      times.push(performance.now() - started);
      if (hits.length === 10) full += 1;
      found += hits.filter((h) => exact[q]?.has(h.chunkId)).length;
    }
    figures[`ef${ef}`] = {
      p50Ms: round(percentile(times, 50)),
      p99Ms: round(percentile(times, 99)),
      fullListShare: round(full / QUERIES, 3),
      recallAt10: round(found / (QUERIES * 10), 3),
    };
  }
  return figures;
}
