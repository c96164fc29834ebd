import { z } from 'zod';
import {
  deleteModelSettings,
  saveModelSettings,
  showModelSettings,
  testModelSettings,
} from '../../client/modelConfigs';
import type { ApiContext } from '../context';
import { ApiError } from '../errors';
import {
  modelConfigBody,
  modelConfigResponse,
  modelConfigSchema,
  modelPurposeParams,
  modelTestResult,
} from '../modelConfigSchemas';
import type { Router } from '../router';
import { errorResponseSchema } from '../schemas';
import { answering } from './embedding';

const problem = { description: 'the configuration is invalid or cannot be used', schema: errorResponseSchema };

/** The caller's CHAT and VISION models (docs/enrichment.md), kept like the embedding configuration. */
export function modelConfigRoutes(router: Router, ctx: ApiContext): void {
  const deps = { db: ctx.adapters.db, config: ctx.config };
  const tags = ['enrichment'];
  const path = '/v1/model-configs/{purpose}';

  router.route({
    method: 'GET',
    path,
    operationId: 'getModelConfig',
    summary: "The caller's CHAT or VISION model, with the API key masked",
    tags,
    auth: true,
    params: modelPurposeParams,
    responses: { 200: { description: 'the configuration', schema: modelConfigResponse }, 400: problem },
    handler: ({ params, principal }) =>
      answering(async () => ({ config: await showModelSettings(deps, principal().userId, params.purpose) })),
  });

  router.route({
    method: 'PUT',
    path,
    operationId: 'putModelConfig',
    summary: "Replace the caller's CHAT or VISION model",
    description:
      'The API key is write-only: sent, it is stored encrypted; omitted, the stored key is kept (only for the same host). Calls go through the outbound policy.',
    tags,
    auth: true,
    params: modelPurposeParams,
    body: modelConfigBody,
    responses: {
      200: { description: 'saved', schema: z.object({ config: modelConfigSchema }) },
      400: problem,
    },
    handler: ({ params, body, principal }) =>
      answering(async () => ({ config: await saveModelSettings(deps, principal().userId, params.purpose, body) })),
  });

  router.route({
    method: 'DELETE',
    path,
    operationId: 'deleteModelConfig',
    summary: "Delete the caller's CHAT or VISION model (and its sealed key)",
    tags,
    auth: true,
    params: modelPurposeParams,
    responses: { 200: { description: 'whether there was one', schema: z.object({ deleted: z.boolean() }) } },
    handler: async ({ params, principal }) => ({
      deleted: await deleteModelSettings(deps, principal().userId, params.purpose),
    }),
  });

  router.route({
    method: 'POST',
    path: `${path}/test`,
    operationId: 'testModelConfig',
    summary: "Send one short chat to the caller's model",
    description: 'ok is false, with a message, when the endpoint refuses, cannot be reached, or is not allowed.',
    tags,
    auth: true,
    params: modelPurposeParams,
    responses: {
      200: { description: 'the outcome', schema: modelTestResult },
      400: problem,
      404: { description: 'the caller has no such model', schema: errorResponseSchema },
      429: { description: 'the caller has as many provider tests in flight as allowed', schema: errorResponseSchema },
    },
    handler: ({ params, principal }) =>
      // Each call reaches the model: capped per user like a search (429 past it).
      ctx.limiters.providerTests.run(principal().userId, () =>
        answering(async () => {
          const result = await testModelSettings(deps, principal().userId, params.purpose);
          if (!result) throw new ApiError(404, 'NOT_FOUND', `no ${params.purpose.toUpperCase()} model is configured`);
          return result;
        }),
      ),
  });
}
