import { z } from 'zod';
import { SluiceError } from '../../contracts/sluiceError';
import {
  configsApply,
  deleteEmbeddingSettings,
  showEmbeddingConfig,
  EmbeddingConfigError,
  saveEmbeddingSettings,
  testEmbeddingSettings,
} from '../../client/embeddingConfigs';
import { reembedDataset } from '../../client/reembed';
import type { ApiContext } from '../context';
import { ApiError } from '../errors';
import type { Router } from '../router';
import { createTenantLimiter } from '../tenantLimiter';
import {
  datasetParams,
  embeddingConfigBody,
  embeddingConfigResponse,
  embeddingConfigSaved,
  embeddingTestResult,
  errorResponseSchema,
  reembedResultSchema,
} from '../schemas';

/** Caller mistakes (a bad URL, no SLUICE_SECRET_KEY) and undecryptable keys answer 4xx with their safe message (model configs too). */
export async function answering<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof EmbeddingConfigError) throw new ApiError(400, 'INVALID_EMBEDDING_CONFIG', error.message);
    if (error instanceof SluiceError) throw new ApiError(409, error.code, error.message);
    throw error;
  }
}

const problem = { description: 'the configuration is invalid or cannot be used', schema: errorResponseSchema };

export function embeddingRoutes(router: Router, ctx: ApiContext): void {
  const reembeds = createTenantLimiter(
    're-embeds',
    'SLUICE_API_MAX_CONCURRENT_REEMBEDS',
    ctx.config.api.perUser.reembeds,
  );
  const deps = { db: ctx.adapters.db, config: ctx.config };
  const tags = ['embedding'];

  router.route({
    method: 'GET',
    path: '/v1/embedding-config',
    operationId: 'getEmbeddingConfig',
    summary: "The embedding configuration that embeds the caller's documents, with the API key masked",
    tags,
    auth: true,
    responses: { 200: { description: 'the configuration', schema: embeddingConfigResponse }, 409: problem },
    handler: ({ principal }) =>
      answering(async () => ({
        config: await showEmbeddingConfig(deps, { userId: principal().userId }),
        applies: configsApply(ctx.config),
      })),
  });

  router.route({
    method: 'PUT',
    path: '/v1/embedding-config',
    operationId: 'putEmbeddingConfig',
    summary: "Replace the caller's own embedding configuration",
    description:
      'The API key is write-only: sent, it is stored encrypted; omitted, the stored key is kept. A changed model or dimension makes earlier vectors stale: see reembedSuggested.',
    tags,
    auth: true,
    body: embeddingConfigBody,
    responses: { 200: { description: 'saved', schema: embeddingConfigSaved }, 400: problem },
    handler: ({ body, principal }) =>
      answering(async () => {
        const outcome = await saveEmbeddingSettings(
          deps,
          { userId: principal().userId },
          { ...body, baseUrl: body.baseUrl ?? null },
        );
        return { config: outcome.view, reembedSuggested: outcome.reembedSuggested, datasets: outcome.datasets };
      }),
  });

  router.route({
    method: 'DELETE',
    path: '/v1/embedding-config',
    operationId: 'deleteEmbeddingConfig',
    summary: "Delete the caller's own embedding configuration (the deployment default applies again)",
    tags,
    auth: true,
    responses: { 200: { description: 'whether there was one', schema: z.object({ deleted: z.boolean() }) } },
    handler: async ({ principal }) => ({
      deleted: await deleteEmbeddingSettings(deps, { userId: principal().userId }),
    }),
  });

  router.route({
    method: 'POST',
    path: '/v1/embedding-config/test',
    operationId: 'testEmbeddingConfig',
    summary: "Embed one sentence with the caller's configuration and check the vector's dimension",
    description:
      'ok is false, with a message, when the provider refuses, cannot be reached (or its address is not allowed), or returns vectors of another dimension.',
    tags,
    auth: true,
    responses: {
      200: { description: 'the outcome', schema: embeddingTestResult },
      404: { description: 'no configuration reaches the caller', schema: errorResponseSchema },
      409: problem,
      429: { description: 'the caller has as many provider tests in flight as allowed', schema: errorResponseSchema },
    },
    handler: ({ principal }) =>
      // Each call reaches the provider: capped per user like a search (429 past it).
      ctx.limiters.providerTests.run(principal().userId, () =>
        answering(async () => {
          const result = await testEmbeddingSettings(deps, { userId: principal().userId });
          if (!result) throw new ApiError(404, 'NOT_FOUND', 'no embedding configuration reaches this user');
          return result;
        }),
      ),
  });

  router.route({
    method: 'POST',
    path: '/v1/datasets/{datasetId}/reembed',
    operationId: 'reembedDataset',
    summary: "Re-embed a dataset's documents whose vectors another model or dimension made",
    description:
      'A durable take-over of each succeeded document: parse, chunks and keyword entries are kept; VECTORIZING and SPARSE_VECTORIZING run again.',
    tags,
    auth: true,
    params: datasetParams,
    responses: {
      202: { description: 'the runs started and the documents skipped', schema: reembedResultSchema },
      409: problem,
      429: { description: 'the caller has a re-embed in flight already', schema: errorResponseSchema },
    },
    handler: ({ params, principal, reply }) =>
      answering(async () => {
        const { userId } = principal();
        const report = await reembeds.run(userId, () =>
          reembedDataset(
            { client: ctx.client, db: ctx.adapters.db, config: ctx.config, embedders: ctx.adapters.embedders },
            { userId, datasetId: params.datasetId },
          ),
        );
        void reply.code(202);
        return report;
      }),
  });
}
