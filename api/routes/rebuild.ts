import { RetryRefusedError } from '../../client/documentAdmin';
import { InvalidPlanError, planOf, rebuildDocument, startDatasetRebuild, type PlanRequest } from '../../client/rebuild';
import { findUserDocument } from '../../db/repositories/documentCatalog';
import type { ApiContext } from '../context';
import { ApiError, notFound } from '../errors';
import type { Router } from '../router';
import {
  datasetParams,
  datasetRebuildStartedSchema,
  documentParams,
  errorResponseSchema,
  rebuildBody,
  rebuildStartedSchema,
} from '../schemas';

const errors = (description: string) => ({ description, schema: errorResponseSchema });

/** A plan outside the contract is the caller's mistake (400). */
function planFrom(body: PlanRequest | undefined) {
  try {
    return planOf(body ?? {}, 'rebuild requested through the HTTP API');
  } catch (error) {
    if (error instanceof InvalidPlanError) throw new ApiError(400, 'INVALID_CHUNKING_PLAN', error.message);
    throw error;
  }
}

/** Rebuilds from the stored markdown under a new plan (docs/rebuild.md). */
export function rebuildRoutes(router: Router, ctx: ApiContext): void {
  const deps = { client: ctx.client, db: ctx.adapters.db, config: ctx.config };

  router.route({
    method: 'POST',
    path: '/v1/documents/{id}/rebuild',
    operationId: 'rebuildDocument',
    summary: "Rebuild a document's index from its stored markdown under a new chunking plan",
    description:
      'A durable take-over of the succeeded latest task: no download, no parse; vectors of unchanged chunk texts are reused; search serves the old chunks until the new set is complete in every store, then switches atomically.',
    tags: ['documents'],
    auth: true,
    params: documentParams,
    body: rebuildBody,
    responses: {
      202: { description: 'the rebuild run started', schema: rebuildStartedSchema },
      400: errors('the plan is invalid'),
      404: errors('no such document for this user'),
      409: errors('refused (RETRY_VALIDATION_FAILED): latest task not a success, a run is open, being deleted'),
    },
    handler: async ({ reply, params, principal, body }) => {
      const { userId } = principal();
      if (!(await findUserDocument(ctx.adapters.db, userId, params.id))) throw notFound();
      const plan = planFrom(body);
      try {
        return reply.code(202).send(await rebuildDocument(deps, { userId }, params.id, plan));
      } catch (error) {
        if (!(error instanceof RetryRefusedError)) throw error;
        throw new ApiError(409, error.code, error.message.replace(/^RETRY_VALIDATION_FAILED:\s*/, ''));
      }
    },
  });

  router.route({
    method: 'POST',
    path: '/v1/datasets/{datasetId}/rebuild',
    operationId: 'rebuildDataset',
    summary: 'Rebuild every document of a dataset under a new chunking plan, a bounded number at a time',
    description:
      'Starts one durable workflow per (user, dataset) that starts a rebuild run per document, with at most SLUICE_REBUILD_MAX_OPEN open at once; documents whose latest task did not succeed are skipped.',
    tags: ['datasets'],
    auth: true,
    params: datasetParams,
    body: rebuildBody,
    responses: {
      202: { description: 'the dataset rebuild started (or was running)', schema: datasetRebuildStartedSchema },
      400: errors('the plan is invalid'),
    },
    handler: async ({ reply, params, principal, body }) => {
      const { userId } = principal();
      const run = await startDatasetRebuild(deps, { userId, datasetId: params.datasetId }, planFrom(body));
      return reply
        .code(202)
        .send({ workflowId: run.workflowId, alreadyRunning: run.alreadyRunning, maxOpen: ctx.config.rebuildMaxOpen });
    },
  });
}
