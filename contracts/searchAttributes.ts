import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes (all Keyword) that make the Web UI useful to operators:
 * `PipelineStatus = "FAILED" AND PipelineStage = "VECTORIZING"` is one visibility query.
 */
export const DocumentIdKey = defineSearchAttributeKey('DocumentId', SearchAttributeType.KEYWORD);
export const DatasetIdKey = defineSearchAttributeKey('DatasetId', SearchAttributeType.KEYWORD);
export const PipelineStageKey = defineSearchAttributeKey('PipelineStage', SearchAttributeType.KEYWORD);
export const PipelineStatusKey = defineSearchAttributeKey('PipelineStatus', SearchAttributeType.KEYWORD);
export const FailureCodeKey = defineSearchAttributeKey('FailureCode', SearchAttributeType.KEYWORD);
/**
 * What a run's current activity waits for after a failed attempt ("Postgres", "the embedding
 * provider"); unset while nothing is waiting. `WaitingFor IS NOT NULL` counts the runs that are
 * riding out an outage, which are PROCESSING, not FAILED.
 */
export const WaitingForKey = defineSearchAttributeKey('WaitingFor', SearchAttributeType.KEYWORD);
/** The synced source a sync run, and the document runs and deletions it started, work for (docs/sources.md). */
export const SourceIdKey = defineSearchAttributeKey('SourceId', SearchAttributeType.KEYWORD);
