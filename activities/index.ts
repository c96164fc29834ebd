import { createChunkingActivity } from './stages/chunking';
import {
  createConfirmChunkingPlanActivity,
  createNotifyPlanWaitingActivity,
  createPlanChunkingActivity,
} from './stages/chunkingPlan';
import { createCleaningActivity, createParseForEnrichmentActivity } from './stages/cleaning';
import type { ActivityDeps } from './deps';
import { createAttachedDocumentsActivities } from './maintenance/attachedDocuments';
import { createCopyDocumentFieldsActivity } from './maintenance/copyDocumentFields';
import { createDeletionActivities } from './maintenance/deletion';
import { createEnrichChunksActivity } from './stages/enrichChunks';
import { createEnrichMarkdownActivity } from './stages/enrichMarkdown';
import { createSweepOrphanedObjectsActivity } from './maintenance/sweepOrphanedObjects';
import { createSweepStuckTasksActivity } from './maintenance/sweepStuckTasks';
import { createKeywordIndexingActivity } from './stages/keywordIndexing';
import { createNotifyResultActivity, createRecordNotifyFailureActivity } from './stages/notifyResult';
import { createPrepareTaskActivity } from './stages/prepareTask';
import { createPretokenizeActivity } from './stages/pretokenize';
import { createRecordTaskFailureActivity } from './stages/recordTaskFailure';
import { createRebuildDatasetActivities } from './maintenance/rebuildDataset';
import { createRetireChunkSetsActivity } from './maintenance/retireChunkSets';
import { createRegisterSourceActivity } from './stages/sourceRegistration';
import { createSparseVectorizingActivity } from './stages/sparseVectorizing';
import { createSourceSyncActivities } from './sources/sourceSyncActivities';
import { createVectorizingActivity } from './stages/vectorizing';

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
    ...createAttachedDocumentsActivities(deps),
    copyDocumentFields: createCopyDocumentFieldsActivity(deps),
    ...createRebuildDatasetActivities(deps),
    sweepStuckTasks: createSweepStuckTasksActivity(deps),
    sweepOrphanedObjects: createSweepOrphanedObjectsActivity(deps),
    ...createSourceSyncActivities(deps),
  };
}

export type IngestActivities = ReturnType<typeof createStageActivities>;
