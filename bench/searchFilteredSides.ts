import { sql } from 'kysely';
import type { Adapters } from '../composition/adapters';
import type { DocumentFilter } from '../contracts/searchFilter';
import { callReranker } from '../rerank/rerankClient';
import { searchWithSettings } from '../search/hybridSearch';
import { RERANK_TEXT_MAX_CHARS } from '../search/rerankHits';
import { DEFAULT_SEARCH_SETTINGS } from '../search/searchSettings';
import type { TenantScope } from '../stores/ports';
import { startRerankServer } from '../testkit/fakes/rerankServer';
import { percentile, round } from './searchMeasures';

/**
 * The bench's documents (bench/searchLoad.ts: 1,000 chunks each) get a metadata key `bucket`, their
 * number mod 100, so a filter keeps a known share of the dataset: `bucket = 0` is 1 %, `bucket < 50`
 * is 50 %. Idempotent: the next run finds them set.
 */
export async function tagBenchDocuments(adapters: Adapters, scope: TenantScope): Promise<void> {
  await sql`UPDATE documents
               SET metadata = jsonb_build_object('bucket', (substring(id from 'bench-doc-([0-9]+)'))::int % 100)
             WHERE user_id = ${scope.userId} AND dataset_id = ${scope.datasetId} AND NOT metadata ? 'bucket'`.execute(
    adapters.db,
  );
}

export const BENCH_FILTERS: Record<string, DocumentFilter> = {
  filtered1pct: { field: 'meta.bucket', eq: 0 },
  filtered50pct: { field: 'meta.bucket', range: { lt: 50 } },
};

/**
 * What a reranker adds to a search, apart from the search: one call with the first 50 fused
 * candidates of each query (texts cut as searchDataset sends them) to a local server speaking the
 * TEI shape, over loopback. It scores by word overlap, so this is the call's own cost (request,
 * answer, parsing), not a model's; a real reranker's inference comes on top.
 */
export async function rerankOverhead(
  adapters: Adapters,
  scope: TenantScope,
  queries: string[],
): Promise<Record<string, number>> {
  const server = await startRerankServer();
  try {
    const times: number[] = [];
    for (const query of queries) {
      const hits = await searchWithSettings(adapters, scope, query, 50, DEFAULT_SEARCH_SETTINGS, {
        textChars: RERANK_TEXT_MAX_CHARS,
      });
      const started = performance.now();
      await callReranker(
        { baseUrl: server.teiUrl, model: 'bench', shape: 'tei', apiKey: null },
        query,
        hits.map((hit) => hit.text),
        { outbound: { allowPrivate: true }, timeoutMs: 10_000, maxResponseBytes: 1 << 20 },
      );
      times.push(performance.now() - started);
    }
    return { candidates: 50, p50Ms: round(percentile(times, 50)), p99Ms: round(percentile(times, 99)) };
  } finally {
    await server.close();
  }
}
