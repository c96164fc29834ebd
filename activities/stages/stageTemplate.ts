import { log } from '@temporalio/activity';
import type { StageInput, StageResult } from '../../contracts/ingest';
import { permanentError } from '../../contracts/sluiceError';
import { STAGES, type Stage } from '../../contracts/stages';
import { getPipeline, IllegalTransitionError, markPipelineSucceeded } from '../../db/repositories/pipelines';
import {
  markStageSucceeded,
  tryStartStage,
  type StageOutputs,
  type StartedStage,
} from '../../db/repositories/stageTransitions';
import { stageColumns } from '../../db/repositories/stageColumns';
import type { ActivityDeps } from '../deps';
import { keepAlive } from '../heartbeat';
import { stageMetrics } from './stageMetrics';
import { toApplicationFailure } from '../toApplicationFailure';

/** What a stage's work hands back: items done, and outputs recorded with its SUCCESS. */
export type StageWork = number | { items: number; outputs: StageOutputs };

export interface StageOptions {
  /** Counted when the stage had already succeeded for this task. */
  itemsWhenSkipped?: () => Promise<number>;
  /**
   * The work is the stage's first part: the stage stays PROCESSING, and a later activity of the
   * same task enters it again (the guarded start allows it) to finish it and record the SUCCESS.
   */
  leaveOpen?: boolean;
}

/**
 * The one template every stage runs through (docs/design.md §3): skip if already SUCCESS for this
 * task → markStarted → work → markSuccess. A terminal failure is recorded by the workflow
 * (recordTaskFailure), because only the workflow knows when retries are exhausted or an
 * attempt timed out — an activity killed by a timeout cannot record its own failure.
 */
export async function runStage(
  deps: ActivityDeps,
  input: StageInput,
  stage: Stage,
  work: (started: StartedStage) => Promise<StageWork>,
  options: StageOptions = {},
): Promise<StageResult> {
  const itemsWhenSkipped = options.itemsWhenSkipped ?? (() => Promise.resolve(0));
  const metrics = stageMetrics();
  const startedAt = performance.now();
  try {
    // The guarded start is the common path's only statement before the work (it also returns the
    // stage's inputs); the row is read only when it refused, to tell a superseded task from an
    // inherited SUCCESS.
    const started = await tryStartStage(deps.db, input.taskId, stage);
    if (!started) {
      const items = await skipOrRefuse(deps, input, stage, itemsWhenSkipped);
      metrics.attempt(stage, 'skipped', performance.now() - startedAt);
      return { stage, skipped: true, items };
    }
    const stopBeating = keepAlive();
    const done = await work(started).finally(stopBeating);
    const { items, outputs } = typeof done === 'number' ? { items: done, outputs: {} } : done;
    if (options.leaveOpen) return { stage, skipped: false, items };
    await markStageSucceeded(deps.db, input.taskId, stage, outputs);
    metrics.attempt(stage, 'success', performance.now() - startedAt);
    // CLEANING counts markdown bytes, not chunks.
    if (stage !== 'CLEANING') metrics.chunks(stage, items);
    return { stage, skipped: false, items };
  } catch (error) {
    const failure = toApplicationFailure(error);
    metrics.attempt(stage, 'failure', performance.now() - startedAt, {
      code: failure.type ?? 'INTERNAL_UNKNOWN_ERROR',
      retryable: !failure.nonRetryable,
    });
    throw failure;
  }
}

async function skipOrRefuse(
  deps: ActivityDeps,
  input: StageInput,
  stage: Stage,
  itemsWhenSkipped: () => Promise<number>,
): Promise<number> {
  const pipeline = await getPipeline(deps.db, input.taskId);
  if (pipeline.superseded_by_task_id) {
    throw permanentError('TASK_SUPERSEDED', `task ${input.taskId} was superseded by ${pipeline.superseded_by_task_id}`);
  }
  const status = pipeline[stageColumns(stage).status];
  if (status !== 'SUCCESS')
    throw new IllegalTransitionError(`task ${input.taskId}: ${stage} cannot start from ${status}`);
  if (stage === STAGES[STAGES.length - 1]) await markPipelineSucceeded(deps.db, input.taskId);
  log.info('stage already succeeded for this task; skipping', { stage, taskId: input.taskId });
  return itemsWhenSkipped();
}
