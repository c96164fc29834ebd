import { createChunkingActivity } from './chunking';
import {
  createConfirmChunkingPlanActivity,
  createNotifyPlanWaitingActivity,
  createPlanChunkingActivity,
} from './chunkingPlan';
import { createCleaningActivity, createParseForEnrichmentActivity } from './cleaning';
import type { ActivityDeps } from './deps';
import { createDeletionActivities } from './deletion';
import { createEnrichChunksActivity } from './enrichChunks';
import { createEnrichMarkdownActivity } from './enrichMarkdown';
import { createSweepOrphanedObjectsActivity } from './sweepOrphanedObjects';
import { createSweepStuckTasksActivity } from './sweepStuckTasks';
import { createKeywordIndexingActivity } from './keywordIndexing';
import { createNotifyResultActivity, createRecordNotifyFailureActivity } from './notifyResult';
import { createPrepareTaskActivity } from './prepareTask';
import { createPretokenizeActivity } from './pretokenize';
import { createRecordTaskFailureActivity } from './recordTaskFailure';
import { createRebuildDatasetActivities } from './rebuildDataset';
import { createRetireChunkSetsActivity } from './retireChunkSets';
import { createRegisterSourceActivity } from './sourceRegistration';
import { createSparseVectorizingActivity } from './sparseVectorizing';
import { createVectorizingActivity } from './vectorizing';

export type { ActivityDeps } from './deps';
export type { IngestionRuns } from './ingestionRuns';

/** All ingestion activities, bound to their dependencies. Names are the Temporal activity types. */
export function createStageActivities(deps: ActivityDeps) {
  return {
    registerSource: createRegisterSourceActivity(deps),
    prepareTask: createPrepareTaskActivity(deps),
    cleaning: createCleaningActivity(deps),
    parseForEnrichment: createParseForEnrichmentActivity(deps),
    enrichMarkdown: createEnrichMarkdownActivity(deps),
    planChunking: createPlanChunkingActivity(deps),
    confirmChunkingPlan: createConfirmChunkingPlanActivity(deps),
    notifyPlanWaiting: createNotifyPlanWaitingActivity(deps),
    chunking: createChunkingActivity(deps),
    vectorizing: createVectorizingActivity(deps),
    enrichChunks: createEnrichChunksActivity(deps),
    pretokenize: createPretokenizeActivity(deps),
    keywordIndexing: createKeywordIndexingActivity(deps),
    sparseVectorizing: createSparseVectorizingActivity(deps),
    retireChunkSets: createRetireChunkSetsActivity(deps),
    recordTaskFailure: createRecordTaskFailureActivity(deps),
    notifyResult: createNotifyResultActivity(deps),
    recordNotifyFailure: createRecordNotifyFailureActivity(deps),
    ...createDeletionActivities(deps),
    ...createRebuildDatasetActivities(deps),
    sweepStuckTasks: createSweepStuckTasksActivity(deps),
    sweepOrphanedObjects: createSweepOrphanedObjectsActivity(deps),
  };
}

export type IngestActivities = ReturnType<typeof createStageActivities>;
