import type { ApiContext } from '../context';
import { ApiError } from '../errors';
import type { Router } from '../router';
import { runSearch } from '../runSearch';
import { datasetParams, errorResponseSchema } from '../schemas';
import { includesOf, searchBody, searchQuery, searchResponseSchema } from '../searchSchemas';

const errors = (description: string) => ({ description, schema: errorResponseSchema });

const responses = {
  200: { description: 'hits, best first, and the cursor of the next page', schema: searchResponseSchema },
  400: errors('a filter that is not valid (FILTER_INVALID), or a cursor of another search (CURSOR_INVALID)'),
  429: errors('the caller has too many searches in flight'),
};

const description =
  'Only the query is embedded here; documents are embedded by the worker. Documents being deleted are never returned. ' +
  'A filter is applied inside every list (dense, sparse, keyword), so a selective filter still fills the page when that many chunks match.';

export function searchRoutes(router: Router, ctx: ApiContext): void {
  router.route({
    method: 'GET',
    path: '/v1/datasets/{datasetId}/search',
    operationId: 'search',
    summary: "Hybrid search (dense + sparse + keyword, fused by rank) over the caller's documents in a dataset",
    description,
    tags: ['search'],
    auth: true,
    params: datasetParams,
    querystring: searchQuery,
    responses,
    handler: async ({ params, query, principal }) => {
      let filter: unknown;
      let include;
      try {
        filter = query.filter === undefined ? undefined : JSON.parse(query.filter);
      } catch {
        throw new ApiError(400, 'FILTER_INVALID', 'filter: not JSON');
      }
      try {
        include = includesOf(query.include);
      } catch (error) {
        throw new ApiError(400, 'VALIDATION_FAILED', (error as Error).message);
      }
      return runSearch(ctx, principal().userId, {
        query: query.q,
        datasets: [params.datasetId],
        filter,
        limit: query.limit,
        cursor: query.cursor,
        minScore: query.minScore,
        include,
      });
    },
  });

  router.route({
    method: 'POST',
    path: '/v1/search',
    operationId: 'searchDatasets',
    summary: "Hybrid search over one or several of the caller's datasets, with a filter",
    description: `${description} Several datasets are fused into one list, with the first dataset's search settings.`,
    tags: ['search'],
    auth: true,
    body: searchBody,
    exactBody: true,
    responses,
    handler: async ({ body, principal }) =>
      runSearch(ctx, principal().userId, {
        query: body.query,
        datasets: body.datasets,
        filter: body.filter,
        limit: body.limit,
        cursor: body.cursor,
        minScore: body.minScore,
        include: body.include ?? [],
      }),
  });
}
