import { workflowInfo } from '@temporalio/workflow';
import type { LocalStagePlan, StageInput, StageResult } from '../contracts/ingest';
import type { Stage } from '../contracts/stages';
import {
  batchStage,
  cleaningStage,
  cpuStage,
  embeddingStage,
  enrichmentStage,
  localBatchStage,
  localCleaningStage,
  localCpuStage,
  type RunPolicy,
} from './activityOptions';
import { activitySummary } from './activitySummary';

export interface StageCall {
  run: (input: StageInput) => Promise<StageResult>;
  local: boolean;
}

/**
 * Each stage's activity, with its Web UI summary ("CLEANING report.pdf"); a stage the plan marks
 * short runs as a local activity.
 */
export function stageCall(
  stage: Stage,
  plan: LocalStagePlan | undefined,
  chunkCount: number,
  subject: string,
  enrichMarkdown: boolean,
  policy: RunPolicy,
): StageCall {
  const early = plan?.beforeEmbedding === true;
  const late = plan !== undefined && chunkCount <= plan.maxChunksAfterEmbedding;
  const summary = activitySummary(stage, subject);
  switch (stage) {
    case 'CLEANING':
      if (enrichMarkdown) return { run: (input) => parseThenEnrich(input, early, subject, policy), local: false };
      return { run: (early ? localCleaningStage : cleaningStage)(summary, policy).cleaning, local: early };
    case 'CHUNKING':
      return { run: (early ? localCpuStage : cpuStage)(summary, policy).chunking, local: early };
    case 'VECTORIZING':
      // Always a normal activity: it goes to the embedding task queue and its rate limit.
      return { run: embeddingStage(workflowInfo().taskQueue, summary, policy).vectorizing, local: false };
    case 'PRETOKENIZE':
      return { run: (late ? localCpuStage : cpuStage)(summary, policy).pretokenize, local: late };
    case 'KEYWORD_INDEXING':
      return { run: (late ? localBatchStage : batchStage)(summary, policy).keywordIndexing, local: late };
    case 'SPARSE_VECTORIZING':
      return { run: (late ? localBatchStage : batchStage)(summary, policy).sparseVectorizing, local: late };
  }
}

/**
 * CLEANING of a run whose dataset asks a model to enrich its markdown, in two activities: the
 * parse where it always runs, then the model calls on the enrichment queue, whose slots and rate
 * limit bound them; the second records the stage's SUCCESS.
 */
async function parseThenEnrich(
  input: StageInput,
  local: boolean,
  subject: string,
  policy: RunPolicy,
): Promise<StageResult> {
  const summary = activitySummary('CLEANING', subject);
  // A parse that came back in the result (a run started on an older worker) is handed on;
  // otherwise enrichMarkdown reads it from the task.
  const { parsed, mail } = await (local ? localCleaningStage : cleaningStage)(summary, policy).parseForEnrichment(
    input,
  );
  const enriched = await enrichmentStage(
    workflowInfo().taskQueue,
    activitySummary('enrich markdown', subject),
    policy,
  ).enrichMarkdown(parsed ? { ...input, parsed } : input);
  // The parse knows a mail file; the run starts its attachments after the stage (workflows/runStages.ts).
  return mail === true ? { ...enriched, mail } : enriched;
}
