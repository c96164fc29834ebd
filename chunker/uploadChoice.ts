import {
  CHUNKING_STRATEGIES,
  chunkingParametersProblem,
  type ChunkingChoice,
  type ChunkingParameters,
} from '../contracts/chunkingPlan';
import { STRATEGY_PARAMETERS } from './recommendPlan';

/** The deployment's chunk sizes (SLUICE_CHUNK_MAX_TOKENS, SLUICE_CHUNK_OVERLAP_TOKENS) as `general`'s parameters. */
export function generalParametersOf(chunking: { maxTokens: number; overlapTokens: number }): ChunkingParameters {
  return { childTokens: chunking.maxTokens, overlapTokens: chunking.overlapTokens, parentTokens: null };
}

/**
 * Why an upload's choice would make a plan that cannot be chunked with, or null. The plan lays the
 * choice's parameters over its strategy's (proposePlan), so they are checked merged, not alone:
 * `childTokens=50` by itself is refused under a strategy whose overlap is 60. A choice without a
 * strategy may land on any strategy the recommendation picks, so it must fit every one of them.
 */
export function uploadChoiceProblem(choice: ChunkingChoice, general: ChunkingParameters): string | null {
  for (const strategy of choice.strategy ? [choice.strategy] : CHUNKING_STRATEGIES) {
    const base = strategy === 'general' ? general : STRATEGY_PARAMETERS[strategy];
    const merged = { ...base, ...choice.parameters };
    const problem = chunkingParametersProblem(merged);
    if (problem)
      return `${problem} (under ${strategy}: child ${merged.childTokens} / overlap ${merged.overlapTokens} / parent ${merged.parentTokens ?? 'section'})`;
  }
  return null;
}
