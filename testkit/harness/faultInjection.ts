import { ApplicationFailure } from '@temporalio/common';
import type { IngestActivities } from '../../activities';
import { STAGE_DEFAULT_FAILURE } from '../../contracts/failureCodes';
import type { StageInput, StageResult } from '../../contracts/ingest';
import { STAGES, type Stage } from '../../contracts/stages';

export const STAGE_ACTIVITY: Record<Stage, keyof IngestActivities> = {
  CLEANING: 'cleaning',
  CHUNKING: 'chunking',
  VECTORIZING: 'vectorizing',
  PRETOKENIZE: 'pretokenize',
  KEYWORD_INDEXING: 'keywordIndexing',
  SPARSE_VECTORIZING: 'sparseVectorizing',
};

/**
 * Wraps the real stage activities: a document listed in `failOnce` fails once at that stage
 * (before any work, with the stage's code, non-retryable), and every real execution is counted
 * in `executions` under `${documentId}:${stage}`.
 */
export function injectStageFaults(failOnce: Map<string, Stage>, executions: Map<string, number>) {
  return (real: IngestActivities): Partial<IngestActivities> =>
    Object.fromEntries(
      STAGES.map((stage) => {
        const run = real[STAGE_ACTIVITY[stage]] as (input: StageInput) => Promise<StageResult>;
        const wrapped = async (input: StageInput): Promise<StageResult> => {
          if (failOnce.get(input.documentId) === stage) {
            failOnce.delete(input.documentId);
            throw ApplicationFailure.create({
              type: STAGE_DEFAULT_FAILURE[stage],
              message: `injected failure at ${stage}`,
              nonRetryable: true,
            });
          }
          const key = `${input.documentId}:${stage}`;
          executions.set(key, (executions.get(key) ?? 0) + 1);
          return run(input);
        };
        return [STAGE_ACTIVITY[stage], wrapped];
      }),
    );
}
