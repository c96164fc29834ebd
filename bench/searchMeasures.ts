import { sql } from 'kysely';
import type { Adapters } from '../composition/adapters';
import { sparseQueryFromTokens } from '../sparse/sparseVector';
import type { SearchHit, TenantScope } from '../stores/ports';
import { textLanguage } from '../tokenizer/textLanguage';
import { tokenize } from '../tokenizer/tokenize';
import { vectorLiteral } from '../db/pgvector';
import { denseQueryText } from '../search/denseQuery';
import { BENCH_MODELS, chunkVector, queryVectorNear } from './searchCorpus';

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;

async function timed<T>(op: () => Promise<T>): Promise<number> {
  const start = performance.now();
  await op();
  return performance.now() - start;
}

/** Milliseconds of each part of one hybrid search, run one after another: where the time goes. */
export async function partTimes(
  adapters: Adapters,
  scope: TenantScope,
  query: string,
): Promise<Record<string, number>> {
  const tokens = tokenize(query);
  const embedder = await adapters.embedders.forUser(scope.userId);
  const language = adapters.languageEmbedders?.of(textLanguage(query));
  let vector: number[] = [];
  let languageVector: number[] = [];
  const parts: Record<string, number> = {
    embedQuery: await timed(async () => {
      vector = (await embedder.embed([denseQueryText(query, tokens)]))[0] ?? [];
    }),
    embedQueryLanguage: await timed(async () => {
      languageVector = (await language?.embedQuery(query)) ?? [];
    }),
  };
  const model = { model: embedder.model, dimension: embedder.dimension };
  const candidates = new Set<string>();
  const keep = async (search: () => Promise<SearchHit[]>): Promise<void> => {
    for (const hit of await search()) candidates.add(hit.chunkId);
  };
  parts.dense = await timed(() => keep(() => adapters.vectors.searchDense(scope, model, vector, 50)));
  parts.sparse = await timed(() => keep(() => adapters.vectors.searchSparse(scope, sparseQueryFromTokens(tokens), 50)));
  parts.keyword = await timed(() => keep(() => adapters.keywords.search(scope, tokens, 50)));
  if (language) {
    const languageModel = { model: language.model, dimension: language.dimension };
    parts.languageDense = await timed(() =>
      keep(() => adapters.vectors.searchLanguageDense(scope, languageModel, languageVector, 50)),
    );
    // The passage windows of the other lists' candidates, as hybridSearch reads them.
    parts.passage = await timed(() =>
      adapters.vectors.scorePassageWindows(scope, languageModel, languageVector, [...candidates]),
    );
  }
  return parts;
}

/**
 * The dense list without its index: every vector of the model scored exactly (`+ 0` keeps the
 * planner off the HNSW index), the baseline an index saves.
 */
export async function exactScanMs(adapters: Adapters, scope: TenantScope, vector: number[]): Promise<number> {
  const { model, dimension } = BENCH_MODELS.first;
  return timed(() =>
    sql`
      SELECT chunk_id FROM dense_vectors
       WHERE user_id = ${scope.userId} AND dataset_id = ${scope.datasetId} AND model = ${model} AND dimension = ${dimension}
       ORDER BY (vector <=> ${vectorLiteral(vector)}::vector) + 0, chunk_id
       LIMIT 50`.execute(adapters.db),
  );
}

/** The exact top 10 of queries near known chunks, streamed over the generated vectors, none kept in memory. */
export function exactTop10(total: number, targets: number[]): { query: number[]; ids: Set<string> }[] {
  const { dimension } = BENCH_MODELS.first;
  const queries = targets.map((t) => queryVectorNear(t, dimension));
  const best = queries.map(() => [] as { id: string; score: number }[]);
  for (let index = 0; index < total; index += 1) {
    const vector = chunkVector(index, dimension);
    queries.forEach((query, q) => {
      let score = 0;
      for (let i = 0; i < dimension; i += 1) score += (vector[i] as number) * (query[i] as number);
      const top = best[q] as { id: string; score: number }[];
      if (top.length < 10 || score > (top[top.length - 1] as { score: number }).score) {
        top.push({ id: `bench-${index}`, score });
        top.sort((a, b) => b.score - a.score);
        if (top.length > 10) top.pop();
      }
    });
  }
  return queries.map((query, q) => ({ query, ids: new Set((best[q] ?? []).map((b) => b.id)) }));
}

/** How much of the exact top 10 (exactTop10, computed once for every depth) the store's dense search returns in its top 10. */
export async function coarseRecallAt10(
  adapters: Adapters,
  scope: TenantScope,
  exact: { query: number[]; ids: Set<string> }[],
): Promise<number> {
  let found = 0;
  for (const { query, ids } of exact) {
    const hits = await adapters.vectors.searchDense(scope, BENCH_MODELS.first, query, 10);
    found += hits.filter((h) => ids.has(h.chunkId)).length;
  }
  return found / (exact.length * 10);
}

/** The passage windows bench/searchLoad.ts writes per chunk: about what chunker/passageWindows.ts gives a child of the eval's manuals (4.4 on average). */
export const BENCH_WINDOWS_PER_CHUNK = 4;
