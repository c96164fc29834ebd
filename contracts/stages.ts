/** The six pipeline stages, in the only order they ever run (docs/design.md §1). */
export const STAGES = [
  'CLEANING',
  'CHUNKING',
  'VECTORIZING',
  'PRETOKENIZE',
  'KEYWORD_INDEXING',
  'SPARSE_VECTORIZING',
] as const;

export type Stage = (typeof STAGES)[number];

export const STAGE_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];

export const PIPELINE_STATUSES = ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'] as const;
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];

export type StageStatuses = Record<Stage, StageStatus>;

/** The first stage that is not SUCCESS: where a run (or a retry) resumes. */
export function firstUnfinishedStage(statuses: StageStatuses): Stage | null {
  return STAGES.find((stage) => statuses[stage] !== 'SUCCESS') ?? null;
}

export function allPending(): StageStatuses {
  return Object.fromEntries(STAGES.map((s) => [s, 'PENDING'])) as StageStatuses;
}
