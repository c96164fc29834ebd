import { hybridSearch } from '../../search/hybridSearch';
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
      const hits = await searches.run(userId, () =>
        hybridSearch(ctx.adapters, { userId, datasetId: params.datasetId }, query.q, query.limit),
      );
      return {
        hits: hits.map((h) => ({
          chunkId: h.chunkId,
          documentId: h.documentId,
          fileName: h.fileName,
          sectionPath: h.sectionPath,
          text: h.text,
          textTruncated: h.textTruncated,
          score: h.score,
        })),
      };
    },
  });
}
