import type { ChunkingPlan, PlannedChunking } from '../../contracts/chunkingPlan';
import { chunkingSettingsSchema } from '../../contracts/datasetSettings';
import type { StageInput } from '../../contracts/ingest';
import { permanentError } from '../../contracts/sluiceError';
import { confirmChunkingPlan, findChunkingPlan, insertChunkingPlan } from '../../db/repositories/chunkingPlans';
import { findDatasetSettings } from '../../db/repositories/datasetSettings';
import { findDocument } from '../../db/repositories/documents';
import { recordNotificationAttempt, markNotificationDelivered } from '../../db/repositories/notifications';
import { findTask } from '../../db/repositories/tasks';
import { ObjectNotFoundError } from '../../stores/ports';
import type { ActivityDeps } from '../deps';
import { keepAlive } from '../heartbeat';
import { mappingFailures } from '../toApplicationFailure';

/**
 * The plan step between CLEANING and CHUNKING (docs/design.md §1): recommend a plan from the parsed
 * markdown, apply the dataset's and the upload's choices, preview it, and store it for the task.
 * A `required` dataset's plan is stored WAIT_CONFIRM, the workflow then waits for `confirmPlan`;
 * any other is CONFIRMED at once. A retry takes over the plan its predecessor confirmed, so a
 * person confirms a document once, not once per attempt.
 */
export function createPlanChunkingActivity(deps: ActivityDeps) {
  return mappingFailures(async function planChunking(input: StageInput): Promise<PlannedChunking> {
    const storedSettings = chunkingSettingsSchema.parse(
      (await findDatasetSettings(deps.db, { userId: input.userId, datasetId: input.datasetId })).chunking ?? {},
    );
    // Absent fields are the defaults: the recommended plan, executed without review.
    const settings = {
      ...storedSettings,
      strategy: storedSettings.strategy ?? 'auto',
      review: storedSettings.review ?? 'auto',
    };
    const autoConfirmAfter = settings.review === 'required' ? (settings.autoConfirmAfter ?? null) : null;
    const stored = await findChunkingPlan(deps.db, input.taskId);
    if (stored) return { ...withoutRecord(stored), autoConfirmAfter };
    const task = await findTask(deps.db, input.taskId);
    if (!task?.markdown_object_key)
      throw permanentError('CHUNKING_FAILED', 'the task has no parsed markdown to plan for');
    // A rebuild names its plan (docs/rebuild.md): the person who asked for it chose it, so it is
    // confirmed as it is, not re-proposed from the old task.
    if (task.chunking_plan) {
      const chosen: PlannedChunking = {
        state: 'CONFIRMED',
        plan: task.chunking_plan,
        recommended: task.chunking_plan,
        review: settings.review,
        autoConfirmAfter: null,
        preview: [],
        chunkCount: 0,
      };
      return {
        ...withoutRecord(await insertChunkingPlan(deps.db, input.taskId, input.documentId, chosen)),
        autoConfirmAfter: null,
      };
    }
    const inherited = task.retry_of_task_id ? await findChunkingPlan(deps.db, task.retry_of_task_id) : undefined;
    if (inherited && inherited.state !== 'WAIT_CONFIRM') {
      const planned: PlannedChunking = { ...withoutRecord(inherited), state: 'CONFIRMED', autoConfirmAfter: null };
      return {
        ...withoutRecord(await insertChunkingPlan(deps.db, input.taskId, input.documentId, planned)),
        autoConfirmAfter: null,
      };
    }
    let markdown: string;
    try {
      markdown = await deps.objects.getText(task.markdown_object_key);
    } catch (error) {
      if (error instanceof ObjectNotFoundError)
        throw permanentError('CHUNKING_FAILED', `markdown object ${error.key} is missing`);
      throw error;
    }
    const document = await findDocument(deps.db, input.documentId);
    const stopBeating = keepAlive();
    const proposal = await deps.cpu
      .propose({
        documentId: input.documentId,
        markdown,
        fileType: task.detected_type ?? document?.file_type ?? null,
        dataset: { strategy: settings.strategy, parameters: settings.parameters },
        document: document?.chunking_choice ?? null,
        generalParameters: {
          childTokens: deps.settings.chunking.maxTokens,
          overlapTokens: deps.settings.chunking.overlapTokens,
          parentTokens: null,
        },
        limits: { maxChunks: deps.settings.chunking.maxChunks ?? Number.MAX_SAFE_INTEGER },
      })
      .finally(stopBeating);
    const planned: PlannedChunking = {
      state: settings.review === 'required' ? 'WAIT_CONFIRM' : 'CONFIRMED',
      plan: proposal.plan,
      recommended: proposal.recommended,
      review: settings.review,
      autoConfirmAfter,
      preview: proposal.preview,
      chunkCount: proposal.chunkCount,
    };
    return {
      ...withoutRecord(await insertChunkingPlan(deps.db, input.taskId, input.documentId, planned)),
      autoConfirmAfter,
    };
  });
}

function withoutRecord(stored: PlannedChunking): PlannedChunking {
  const { state, plan, recommended, review, autoConfirmAfter, preview, chunkCount } = stored;
  return { state, plan, recommended, review, autoConfirmAfter, preview, chunkCount };
}

/** WAIT_CONFIRM → CONFIRMED with the plan the reviewer (or the auto-confirm timeout) accepted. */
export function createConfirmChunkingPlanActivity(deps: ActivityDeps) {
  return mappingFailures(async function confirmChunkingPlanStep(confirmation: {
    taskId: string;
    plan: ChunkingPlan;
    confirmedBy: string | null;
  }): Promise<void> {
    await confirmChunkingPlan(deps.db, confirmation.taskId, confirmation.plan, confirmation.confirmedBy);
  });
}

/** Tells the document admin a plan waits (webhook `plan.awaiting_confirmation`), once per task through the outbox. */
export function createNotifyPlanWaitingActivity(deps: ActivityDeps) {
  return mappingFailures(async function notifyPlanWaiting(waiting: {
    taskId: string;
    documentId: string;
    plan: ChunkingPlan;
  }): Promise<void> {
    const event = 'plan.awaiting_confirmation';
    const payload = {
      documentId: waiting.documentId,
      taskId: waiting.taskId,
      strategy: waiting.plan.strategy,
      parameters: waiting.plan.parameters,
      reason: waiting.plan.reason,
    };
    const row = await recordNotificationAttempt(deps.db, {
      taskId: waiting.taskId,
      documentId: waiting.documentId,
      event,
      payload,
    });
    if (!row) return;
    await deps.notifier.deliver({
      event,
      deliveryId: String(row.id),
      documentId: waiting.documentId,
      taskId: waiting.taskId,
      payload,
    });
    await markNotificationDelivered(deps.db, row.id);
  });
}
