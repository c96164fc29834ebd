import { isCancellation, workflowInfo } from '@temporalio/workflow';
import type { IngestProgress, LocalStagePlan, StageInput } from '../contracts/ingest';
import { PipelineStageKey } from '../contracts/searchAttributes';
import { STAGES, type Stage } from '../contracts/stages';
import { bookkeeping, enrichmentStage, type RunPolicy } from './activityOptions';
import { activitySummary } from './activitySummary';
import { classifyFailure, type ClassifiedFailure } from './classifyFailure';
import type { PendingSearchAttributes } from './pendingSearchAttributes';
import type { installPlanGate } from './planGate';
import { stageCall } from './stageCalls';
import type { WaitingState } from './waitingState';

export type Failure = ClassifiedFailure & { stage: Stage | null };

/** Which of the dataset's model enrichments the run's preparation found asked for. */
export interface RunEnrichments {
  chunks: boolean;
  markdown: boolean;
}

/**
 * The six stages in order, from the first that has not succeeded: each through its activity (a
 * local one where the plan says the stage is short), with the chunking plan before CHUNKING,
 * chunk enrichment inside PRETOKENIZE and a mail file's attachments started after CLEANING. A stage that fails for good is recorded and ends the run's
 * stages; its failure is returned.
 */
export async function runStages(
  stageInput: StageInput,
  progress: IngestProgress,
  searchAttributes: PendingSearchAttributes,
  waiting: WaitingState,
  plan: LocalStagePlan | undefined,
  subject: string,
  planGate: ReturnType<typeof installPlanGate>,
  enrich: RunEnrichments,
  policy: RunPolicy,
  /** After a mail file's CLEANING in this run: its attachments' runs (workflows/attachmentRuns.ts). */
  afterMailCleaning: () => Promise<void>,
): Promise<Failure | null> {
  const lastStage = STAGES[STAGES.length - 1];
  for (const stage of STAGES) {
    // Inherited stages are not run again; the last one still runs so it can flip the pipeline.
    if (progress.stages[stage] === 'SUCCESS' && stage !== lastStage) continue;
    progress.currentStage = stage;
    progress.stages[stage] = 'PROCESSING';
    searchAttributes.set([{ key: PipelineStageKey, value: stage }]);
    const enrichMarkdown = stage === 'CLEANING' && enrich.markdown;
    const call = stageCall(stage, plan, progress.chunkCount, subject, enrichMarkdown, policy);
    // A local stage does not end the workflow task, so the server would not see its stage before
    // the next one anyway: it is written with the next normal stage's, or with the run's end.
    if (!call.local) searchAttributes.flush();
    try {
      // The chunking plan, between CLEANING and CHUNKING; a plan that cannot be made fails as CHUNKING would.
      const planned = stage === 'CHUNKING';
      if (planned) await planGate.run(stageInput, searchAttributes, plan?.beforeEmbedding === true, subject, policy);
      // Part of PRETOKENIZE: its failure is the stage's.
      if (stage === 'PRETOKENIZE' && enrich.chunks)
        await enrichmentStage(workflowInfo().taskQueue, activitySummary('enrich chunks', subject), policy).enrichChunks(
          stageInput,
        );
      const result = await call.run(stageInput);
      waiting.clear();
      progress.stages[stage] = 'SUCCESS';
      if (stage === 'CHUNKING') progress.chunkCount = result.items;
      if (result.mail === true) await afterMailCleaning();
      if (planned) planGate.executed();
    } catch (error) {
      if (isCancellation(error)) throw error;
      const failure = { ...classifyFailure(error, stage), stage };
      waiting.clear();
      progress.stages[stage] = 'FAILED';
      await bookkeeping(activitySummary(`record ${stage} failure`, failure.code)).recordTaskFailure({
        taskId: stageInput.taskId,
        stage,
        code: failure.code,
        message: failure.message,
      });
      return failure;
    }
  }
  return null;
}
