import { log } from '@temporalio/activity';
import type { StageInput, StageResult } from '../contracts/ingest';
import { permanentError } from '../contracts/sluiceError';
import { STAGES, type Stage } from '../contracts/stages';
import { getPipeline, markPipelineSucceeded, markStageStarted, markStageSucceeded } from '../db/repositories/pipelines';
import { stageColumns } from '../db/repositories/stageColumns';
import type { ActivityDeps } from './deps';
import { toApplicationFailure } from './toApplicationFailure';

/**
 * The one template every stage runs through (DESIGN.md §3): skip if already SUCCESS for this
 * task → markStarted → work → markSuccess. A terminal failure is recorded by the workflow
 * (recordTaskFailure), because only the workflow knows when retries are exhausted or an
 * attempt timed out — an activity killed by a timeout cannot record its own failure.
 */
export async function runStage(
  deps: ActivityDeps,
  input: StageInput,
  stage: Stage,
  work: () => Promise<number>,
  itemsWhenSkipped: () => Promise<number> = () => Promise.resolve(0),
): Promise<StageResult> {
  try {
    const pipeline = await getPipeline(deps.db, input.taskId);
    if (pipeline.superseded_by_task_id) {
      throw permanentError('TASK_SUPERSEDED', `task ${input.taskId} was superseded by ${pipeline.superseded_by_task_id}`);
    }
    if (pipeline[stageColumns(stage).status] === 'SUCCESS') {
      if (stage === STAGES[STAGES.length - 1]) await markPipelineSucceeded(deps.db, input.taskId);
      log.info('stage already succeeded for this task; skipping', { stage, taskId: input.taskId });
      return { stage, skipped: true, items: await itemsWhenSkipped() };
    }
    await markStageStarted(deps.db, input.taskId, stage);
    const items = await work();
    await markStageSucceeded(deps.db, input.taskId, stage);
    return { stage, skipped: false, items };
  } catch (error) {
    throw toApplicationFailure(error);
  }
}
