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
