/**
 * How a document is cut into chunks. A dataset names a strategy (or `auto`, which takes the
 * recommendation made after CLEANING from the document's structure); a plan is the strategy and
 * parameters one document is, or will be, chunked with, with the reason it was chosen.
 */
export const CHUNKING_STRATEGIES = ['general', 'qa', 'table', 'page', 'one'] as const;
export type ChunkingStrategy = (typeof CHUNKING_STRATEGIES)[number];

/** `auto` runs the recommended plan; `required` waits for a person to confirm it. */
export const PLAN_REVIEW_MODES = ['auto', 'required'] as const;
export type PlanReviewMode = (typeof PLAN_REVIEW_MODES)[number];

export interface ChunkingParameters {
  /** Upper bound, in tokens, of a child chunk: the unit that is embedded and retrieved. */
  childTokens: number;
  /** Tokens each child repeats from the one before it; at most half of childTokens. */
  overlapTokens: number;
  /** Upper bound of a parent (the context returned with a hit); null: the whole section. */
  parentTokens: number | null;
}

export interface ChunkingPlan {
  strategy: ChunkingStrategy;
  parameters: ChunkingParameters;
  /** One line a reviewer reads: why this strategy fits this document. */
  reason: string;
}

export const DEFAULT_CHUNKING_PARAMETERS: ChunkingParameters = {
  childTokens: 400,
  overlapTokens: 60,
  parentTokens: null,
};

/** A plan in one line, for summaries and logs: "general, child 300 / overlap 40 / parent section". */
export function planLine(plan: ChunkingPlan): string {
  const { childTokens, overlapTokens, parentTokens } = plan.parameters;
  return `${plan.strategy}, child ${childTokens} / overlap ${overlapTokens} / parent ${parentTokens ?? 'section'}`;
}
