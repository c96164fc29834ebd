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

/** A plan's life: proposed and waiting for a person, confirmed (as is or changed), then chunked. */
export const PLAN_STATES = ['WAIT_CONFIRM', 'CONFIRMED', 'EXECUTED'] as const;
export type PlanState = (typeof PLAN_STATES)[number];

/**
 * A choice that overrides the recommendation: a document's at upload, or a reviewer's when
 * confirming. Parameters not given keep the plan's.
 */
export interface ChunkingChoice {
  strategy?: ChunkingStrategy;
  parameters?: Partial<ChunkingParameters>;
}

/** One of the first chunks a plan makes, as the reviewer sees it: text cut to PREVIEW_TEXT_CHARS. */
export interface PlanPreviewChunk {
  chunkIndex: number;
  kind: 'parent' | 'child';
  sectionPath: string[];
  text: string;
  tokenCount: number;
}

/** The preview is a few chunks of bounded length, so a plan's history stays small for any document. */
export const PREVIEW_CHUNKS = 4;
export const PREVIEW_TEXT_CHARS = 480;

/** What the plan step decided for one task, as the workflow and its `chunkingPlan` query hold it. */
export interface PlannedChunking {
  state: PlanState;
  plan: ChunkingPlan;
  /** What sluice recommended from the structure, before the dataset's or the upload's choice. */
  recommended: ChunkingPlan;
  review: PlanReviewMode;
  /** How long a `required` plan waits before it is confirmed as proposed; null: until someone does. */
  autoConfirmAfter: string | null;
  /** The plan's first children (PREVIEW_CHUNKS), and how many chunks it makes in all. */
  preview: PlanPreviewChunk[];
  chunkCount: number;
}

const MIN_CHILD_TOKENS = 8;
const MAX_CHILD_TOKENS = 8192;
const MAX_PARENT_TOKENS = 65536;

/** Why parameters cannot be chunked with, or null when they can. Pure: the workflow's validator uses it. */
export function chunkingParametersProblem(p: ChunkingParameters): string | null {
  const int = (n: unknown): boolean => typeof n === 'number' && Number.isInteger(n);
  if (!int(p.childTokens) || p.childTokens < MIN_CHILD_TOKENS || p.childTokens > MAX_CHILD_TOKENS)
    return `childTokens must be an integer from ${MIN_CHILD_TOKENS} to ${MAX_CHILD_TOKENS}`;
  if (!int(p.overlapTokens) || p.overlapTokens < 0 || p.overlapTokens * 2 > p.childTokens)
    return 'overlapTokens must be an integer from 0 to half of childTokens';
  if (
    p.parentTokens !== null &&
    (!int(p.parentTokens) || p.parentTokens < p.childTokens || p.parentTokens > MAX_PARENT_TOKENS)
  )
    return `parentTokens must be null or an integer from childTokens to ${MAX_PARENT_TOKENS}`;
  return null;
}

export function isChunkingStrategy(value: unknown): value is ChunkingStrategy {
  return typeof value === 'string' && (CHUNKING_STRATEGIES as readonly string[]).includes(value);
}

/** The plan a choice makes of `base`: its strategy and parameters over the base's, with the reason saying who chose. */
export function applyChoice(base: ChunkingPlan, choice: ChunkingChoice, who: string): ChunkingPlan {
  const strategy = choice.strategy ?? base.strategy;
  const parameters = { ...base.parameters, ...choice.parameters };
  const changed = strategy !== base.strategy || JSON.stringify(parameters) !== JSON.stringify(base.parameters);
  if (!changed) return base;
  const what =
    strategy !== base.strategy ? `${strategy} instead of ${base.strategy}` : `${strategy} with other parameters`;
  return { strategy, parameters, reason: `${who} chose ${what} (recommended: ${base.reason})` };
}
