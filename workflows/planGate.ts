import { ApplicationFailure, condition, isCancellation, setHandler } from '@temporalio/workflow';
import {
  applyChoice,
  chunkingParametersProblem,
  type ChunkingPlan,
  type PlannedChunking,
} from '../contracts/chunkingPlan';
import type { StageInput } from '../contracts/ingest';
import { chunkingPlanQuery, confirmPlanUpdate, type PlanConfirmation } from '../contracts/ingestApi';
import { planConfirmationShapeProblem } from '../contracts/planConfirmation';
import { PipelineStatusKey } from '../contracts/searchAttributes';
import { bookkeeping, cpuStage, localCpuStage, notification, type RunPolicy } from './activityOptions';
import { activitySummary } from './activitySummary';
import type { PendingSearchAttributes } from './pendingSearchAttributes';

const refuse = (reason: string): never => {
  throw ApplicationFailure.create({
    type: 'PLAN_VALIDATION_FAILED',
    message: `PLAN_VALIDATION_FAILED:${reason}`,
    nonRetryable: true,
  });
};

/**
 * The chunking plan of a run: the `chunkingPlan` query, the `confirmPlan` update and its
 * validator, and the step that proposes the plan and, in review mode `required`, waits durably
 * (for days if need be) until a person confirms it or the dataset's auto-confirm timeout runs out.
 * The plan itself, preview included, is computed and stored by activities; the workflow only
 * holds what they returned (a bounded preview) and the reviewer's choice.
 */
export function installPlanGate() {
  let planned: PlannedChunking | null = null;
  let accepted: { plan: ChunkingPlan; confirmedBy: string | null } | null = null;
  setHandler(chunkingPlanQuery, () => planned);
  setHandler(
    confirmPlanUpdate,
    (confirmation: PlanConfirmation) => {
      const by = confirmation?.confirmedBy ?? null;
      accepted = {
        plan: applyChoice(planned!.plan, confirmation ?? {}, by ? `reviewer ${by}` : 'a reviewer'),
        confirmedBy: by,
      };
      return accepted.plan;
    },
    {
      validator: (confirmation: PlanConfirmation) => {
        if (planned === null) refuse('no chunking plan has been proposed yet');
        if (accepted !== null || planned!.state !== 'WAIT_CONFIRM')
          refuse(`the plan is ${accepted ? 'CONFIRMED' : planned!.state}; only a waiting plan can be confirmed`);
        const shape = planConfirmationShapeProblem(confirmation);
        if (shape) refuse(shape);
        const problem = chunkingParametersProblem({ ...planned!.plan.parameters, ...confirmation?.parameters });
        if (problem) refuse(problem);
      },
    },
  );
  return {
    /** Proposes the task's plan; waits for its confirmation when the dataset requires one. */
    async run(
      input: StageInput,
      searchAttributes: PendingSearchAttributes,
      local: boolean,
      subject: string,
      policy: RunPolicy,
    ) {
      // The run's outage budget and tenant priority, as CHUNKING's own.
      const propose = (local ? localCpuStage : cpuStage)(activitySummary('plan chunking', subject), policy);
      planned = await propose.planChunking(input);
      if (planned.state !== 'WAIT_CONFIRM') return;
      searchAttributes.set([{ key: PipelineStatusKey, value: 'AWAITING_CONFIRMATION' }]);
      searchAttributes.flush();
      const waiting = planned;
      try {
        await notification(activitySummary('notify plan waiting', subject)).notifyPlanWaiting({
          taskId: input.taskId,
          documentId: input.documentId,
          plan: waiting.plan,
        });
      } catch (error) {
        // The admin page and the visibility query still show the wait; the outbox row keeps the attempt.
        if (isCancellation(error)) throw error;
      }
      const confirmed =
        waiting.autoConfirmAfter === null
          ? (await condition(() => accepted !== null), true)
          : await condition(() => accepted !== null, waiting.autoConfirmAfter);
      const decision = confirmed && accepted !== null ? accepted : { plan: waiting.plan, confirmedBy: 'auto-confirm' };
      await bookkeeping(activitySummary('confirm plan', decision.plan.strategy)).confirmChunkingPlan({
        taskId: input.taskId,
        plan: decision.plan,
        confirmedBy: decision.confirmedBy,
      });
      planned = { ...waiting, state: 'CONFIRMED', plan: decision.plan };
      searchAttributes.set([{ key: PipelineStatusKey, value: 'PROCESSING' }]);
    },
    /** CHUNKING wrote the plan's chunks (the activity marked the row EXECUTED). */
    executed(): void {
      if (planned) planned = { ...planned, state: 'EXECUTED' };
    },
  };
}
