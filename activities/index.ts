import { createChunkingActivity } from './chunking';
import { createCleaningActivity } from './cleaning';
import type { ActivityDeps } from './deps';
import { createKeywordIndexingActivity } from './keywordIndexing';
import { createNotifyResultActivity } from './notifyResult';
import { createPrepareTaskActivity } from './prepareTask';
import { createPretokenizeActivity } from './pretokenize';
import { createRecordTaskFailureActivity } from './recordTaskFailure';
import { createSparseVectorizingActivity } from './sparseVectorizing';
import { createVectorizingActivity } from './vectorizing';

export type { ActivityDeps } from './deps';

/** All ingestion activities, bound to their dependencies. Names are the Temporal activity types. */
export function createStageActivities(deps: ActivityDeps) {
  return {
    prepareTask: createPrepareTaskActivity(deps),
    cleaning: createCleaningActivity(deps),
    chunking: createChunkingActivity(deps),
    vectorizing: createVectorizingActivity(deps),
    pretokenize: createPretokenizeActivity(deps),
    keywordIndexing: createKeywordIndexingActivity(deps),
    sparseVectorizing: createSparseVectorizingActivity(deps),
    recordTaskFailure: createRecordTaskFailureActivity(deps),
    notifyResult: createNotifyResultActivity(deps),
  };
}

export type IngestActivities = ReturnType<typeof createStageActivities>;
