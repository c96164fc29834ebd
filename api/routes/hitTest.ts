import { z } from 'zod';
import { DENSE_MODEL_CHOICES, SEARCH_RETRIEVERS, searchSettingsSchema } from '../../contracts/searchSettings';
import { documentFilterSchema, FilterInvalid, parseDocumentFilter } from '../../contracts/searchFilter';
import { hitTest } from '../../search/hitTest';
import { ApiError } from '../errors';
import type { ApiContext } from '../context';
import type { Router } from '../router';
import { datasetParams, errorResponseSchema } from '../schemas';
import { rerankReportSchema } from '../searchSchemas';

const hitTestBody = z
  .object({
    query: z.string().min(1).max(1000).describe('search text'),
    limit: z.number().int().min(1).max(50).default(10),
    adjust: searchSettingsSchema
      .optional()
      .describe(
        "weights, rrfK, denseModels, rerank or rerankCandidates for this test only, over the dataset's settings",
      ),
    filter: documentFilterSchema
      .optional()
      .describe('only documents that pass this filter (docs/search.md, "Filters"), as search takes it'),
  })
  .strict();

const ranks = z.object(
  Object.fromEntries(SEARCH_RETRIEVERS.map((r) => [r, z.number().int().nullable()])) as Record<
    (typeof SEARCH_RETRIEVERS)[number],
    z.ZodNullable<z.ZodNumber>
  >,
);

const hitTestResponse = z.object({
  datasetId: z.string(),
  settings: z.object({
    rrfK: z.number(),
    weights: z.object(
      Object.fromEntries(SEARCH_RETRIEVERS.map((r) => [r, z.number()])) as Record<
        (typeof SEARCH_RETRIEVERS)[number],
        z.ZodNumber
      >,
    ),
    denseModels: z.array(z.enum(DENSE_MODEL_CHOICES)),
    rerank: z.boolean(),
    rerankCandidates: z.number().int().nullable(),
  }),
  wantedLanguage: z
    .object({ language: z.enum(['en', 'zh']), named: z.boolean() })
    .nullable()
    .describe('the language answers are wanted in, and whether the query named it; null when it cannot be told'),
  rerank: rerankReportSchema,
  hits: z.array(
    z.object({
      rank: z.number().int(),
      chunkId: z.string(),
      documentId: z.string(),
      fileName: z.string(),
      sectionPath: z.array(z.string()),
      pages: z.object({ first: z.number().int(), last: z.number().int() }).nullable(),
      text: z.string(),
      textTruncated: z.boolean(),
      score: z.number(),
      fusedScore: z.number(),
      rerankScore: z.number().optional(),
      ranks,
      languageFactor: z
        .number()
        .describe('1, or what the score was multiplied by for a hit in another language than the wanted one'),
    }),
  ),
});

export function hitTestRoutes(router: Router, ctx: ApiContext): void {
  // Counted with the searches (one limiter for both routes): a hit test is one.
  const { searches } = ctx.limiters;
  router.route({
    method: 'POST',
    path: '/v1/datasets/{datasetId}/hit-test',
    operationId: 'hitTest',
    summary: "A retrieval test of the dataset: each retriever's rank of every hit, the fused score, the section path",
    description:
      "Runs the dataset's hybrid search with `adjust` applied over its settings for this request only (nothing stored changes), and answers with the settings used.",
    tags: ['search'],
    auth: true,
    params: datasetParams,
    body: hitTestBody,
    exactBody: true,
    responses: {
      200: { description: 'hits, best first, with every list’s rank', schema: hitTestResponse },
      400: { description: 'an invalid query, adjustment or filter (FILTER_INVALID)', schema: errorResponseSchema },
      429: { description: 'the caller has too many searches in flight', schema: errorResponseSchema },
    },
    handler: async ({ params, body, principal }) => {
      const { userId } = principal();
      let filter;
      try {
        filter = body.filter === undefined ? undefined : parseDocumentFilter(body.filter);
      } catch (error) {
        if (error instanceof FilterInvalid) throw new ApiError(400, 'FILTER_INVALID', error.message);
        throw error;
      }
      const scope = { userId, datasetId: params.datasetId, ...(filter ? { filter } : {}) };
      const result = await searches.run(userId, () =>
        hitTest(ctx.adapters, scope, body.query, body.limit, body.adjust),
      );
      return { datasetId: params.datasetId, ...result };
    },
  });
}
