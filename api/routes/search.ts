import { searchSettingsFor } from '../../search/hybridSearch';
import { searchDataset } from '../../search/searchDataset';
import type { ApiContext } from '../context';
import type { Router } from '../router';
import { datasetParams, errorResponseSchema, searchQuery, searchResponseSchema } from '../schemas';

export function searchRoutes(router: Router, ctx: ApiContext): void {
  const { searches } = ctx.limiters;
  router.route({
    method: 'GET',
    path: '/v1/datasets/{datasetId}/search',
    operationId: 'search',
    summary: "Hybrid search (dense + sparse + keyword, fused by rank) over the caller's documents in a dataset",
    description:
      'Only the query is embedded here; documents are embedded by the worker. Documents being deleted are never returned.',
    tags: ['search'],
    auth: true,
    params: datasetParams,
    querystring: searchQuery,
    responses: {
      200: { description: 'hits, best first', schema: searchResponseSchema },
      429: { description: 'the caller has too many searches in flight', schema: errorResponseSchema },
    },
    handler: async ({ params, query, principal }) => {
      const { userId } = principal();
      const scope = { userId, datasetId: params.datasetId };
      const { hits, rerank } = await searches.run(userId, async () =>
        searchDataset(ctx.adapters, scope, query.q, query.limit, await searchSettingsFor(ctx.adapters.db, scope)),
      );
      return {
        rerank,
        hits: hits.map((h) => ({
          chunkId: h.chunkId,
          documentId: h.documentId,
          fileName: h.fileName,
          sectionPath: h.sectionPath,
          text: h.text,
          textTruncated: h.textTruncated,
          score: h.score,
          fusedScore: h.fusedScore,
          ...(h.rerankScore === undefined ? {} : { rerankScore: h.rerankScore }),
        })),
      };
    },
  });
}
