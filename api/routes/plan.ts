import { WorkflowUpdateFailedError } from '@temporalio/client';
import { chunkingParametersProblem, type ChunkingChoice } from '../../contracts/chunkingPlan';
import { confirmPlan, currentPlan } from '../../client/chunkingPlan';
import { findUserDocument } from '../../db/repositories/documentCatalog';
import type { ApiContext } from '../context';
import { ApiError, notFound } from '../errors';
import { checkedChoice, confirmPlanBody, planConfirmedSchema, planViewSchema } from '../planSchemas';
import type { Router } from '../router';
import { documentParams, errorResponseSchema } from '../schemas';

const errors = (description: string) => ({ description, schema: errorResponseSchema });

const planRefused = (message: string) => new ApiError(400, 'PLAN_VALIDATION_FAILED', message);

/**
 * A document's chunking plan over HTTP (docs/datasets.md, "The plan"): read it with its preview,
 * confirm it as proposed or changed. Another user's document is answered as a missing one.
 */
export function planRoutes(router: Router, ctx: ApiContext): void {
  const { db } = ctx.adapters;
  const deps = { client: ctx.client, db };

  async function ownedPlan(userId: string, documentId: string) {
    if (!(await findUserDocument(db, userId, documentId))) throw notFound();
    return currentPlan(deps, documentId);
  }

  router.route({
    method: 'GET',
    path: '/v1/documents/{id}/plan',
    operationId: 'getDocumentPlan',
    summary: "The document's chunking plan: state, strategy, parameters, reason and a preview of its first chunks",
    description:
      'While the plan waits for confirmation it is read live from the run (the `chunkingPlan` query); once confirmed or executed, from the stored plan.',
    tags: ['documents'],
    auth: true,
    params: documentParams,
    responses: {
      200: { description: 'the plan', schema: planViewSchema },
      404: errors('no such document for this user, or no plan proposed yet'),
    },
    handler: async ({ params, principal }) => {
      const found = await ownedPlan(principal().userId, params.id);
      if (!found) throw notFound('chunking plan');
      const { planned } = found;
      return {
        documentId: params.id,
        taskId: found.taskId,
        state: planned.state,
        plan: planned.plan,
        recommended: planned.recommended,
        review: planned.review,
        chunkCount: planned.chunkCount,
        preview: planned.preview,
        confirmedBy: found.confirmedBy,
        source: found.source,
      };
    },
  });

  router.route({
    method: 'POST',
    path: '/v1/documents/{id}/plan/confirm',
    operationId: 'confirmDocumentPlan',
    summary: 'Confirm the waiting chunking plan, as proposed or with another strategy or parameters',
    description:
      'Goes to the run as the `confirmPlan` update, whose validator refuses a plan that is not waiting or a choice outside the bounds of the dataset settings; the confirmation records the caller.',
    tags: ['documents'],
    auth: true,
    params: documentParams,
    body: confirmPlanBody,
    responses: {
      200: { description: 'the plan that will be executed', schema: planConfirmedSchema },
      400: errors('the strategy or parameters are invalid (PLAN_VALIDATION_FAILED)'),
      404: errors('no such document for this user'),
      409: errors('no plan waits for confirmation (PLAN_VALIDATION_FAILED)'),
    },
    handler: async ({ params, body, principal }) => {
      const { userId } = principal();
      const found = await ownedPlan(userId, params.id);
      if (found?.planned.state !== 'WAIT_CONFIRM')
        throw new ApiError(
          409,
          'PLAN_VALIDATION_FAILED',
          found
            ? `the plan is ${found.planned.state}; only a waiting plan can be confirmed`
            : 'no plan is proposed yet',
        );
      const choice: ChunkingChoice = checkedChoice(withoutUndefined(body));
      const problem = chunkingParametersProblem({ ...found.planned.plan.parameters, ...choice.parameters });
      if (problem) throw planRefused(problem);
      try {
        const plan = await confirmPlan(ctx.client, params.id, { ...choice, confirmedBy: userId });
        return { documentId: params.id, plan };
      } catch (error) {
        // The validator is the last word (a confirmation that raced this one): its reason, as is.
        if (!(error instanceof WorkflowUpdateFailedError)) throw error;
        const cause = error.cause as { type?: string; message?: string } | undefined;
        if (cause?.type !== 'PLAN_VALIDATION_FAILED') throw error;
        throw new ApiError(
          409,
          'PLAN_VALIDATION_FAILED',
          (cause.message ?? '').replace(/^PLAN_VALIDATION_FAILED:/, ''),
        );
      }
    },
  });
}

/** The body's choice without the keys JSON left undefined, so the schema sees only what was named. */
function withoutUndefined(body: { strategy?: ChunkingChoice['strategy']; parameters?: Record<string, unknown> }) {
  const parameters = Object.fromEntries(Object.entries(body.parameters ?? {}).filter(([, v]) => v !== undefined));
  return {
    ...(body.strategy ? { strategy: body.strategy } : {}),
    ...(Object.keys(parameters).length > 0 ? { parameters } : {}),
  };
}
