import {
  CHUNKING_STRATEGIES,
  chunkingParametersProblem,
  type ChunkingChoice,
  type ChunkingParameters,
  type ChunkingStrategy,
} from '../contracts/chunkingPlan';
import { STRATEGY_PARAMETERS } from './recommendPlan';

/** The deployment's chunk sizes (SLUICE_CHUNK_MAX_TOKENS, SLUICE_CHUNK_OVERLAP_TOKENS) as `general`'s parameters. */
export function generalParametersOf(chunking: { maxTokens: number; overlapTokens: number }): ChunkingParameters {
  return { childTokens: chunking.maxTokens, overlapTokens: chunking.overlapTokens, parentTokens: null };
}

/** The dataset's chunking section, as the plan reads it (strategy absent: `auto`). */
export interface DatasetChunking {
  strategy?: 'auto' | ChunkingStrategy;
  parameters?: Partial<ChunkingParameters>;
}

/**
 * Why an upload's choice would make a plan that cannot be chunked with, or null. The plan lays the
 * choice's parameters over the plan it would otherwise be (proposePlan): the strategy's defaults
 * with the dataset's own parameters over them, or, when the choice names another strategy than
 * that plan's, that strategy's defaults alone. So the choice is checked merged with each base it
 * may land on: `childTokens=50` is refused under a strategy whose overlap is 60, and under a
 * dataset whose overlap is 60. A dataset on `auto` may be recommended any strategy, so a choice
 * must fit every one of them.
 */
export function uploadChoiceProblem(
  choice: ChunkingChoice,
  general: ChunkingParameters,
  dataset: DatasetChunking | null = null,
): string | null {
  for (const [strategy, base] of possibleBases(choice, general, dataset)) {
    const merged = { ...base, ...choice.parameters };
    const problem = chunkingParametersProblem(merged);
    if (problem)
      return `${problem} (under ${strategy}: child ${merged.childTokens} / overlap ${merged.overlapTokens} / parent ${merged.parentTokens ?? 'section'})`;
  }
  return null;
}

function possibleBases(
  choice: ChunkingChoice,
  general: ChunkingParameters,
  dataset: DatasetChunking | null,
): Array<[ChunkingStrategy, ChunkingParameters]> {
  const defaults = (strategy: ChunkingStrategy) => (strategy === 'general' ? general : STRATEGY_PARAMETERS[strategy]);
  const fixed = dataset?.strategy && dataset.strategy !== 'auto' ? dataset.strategy : null;
  const planned = (fixed ? [fixed] : CHUNKING_STRATEGIES).map((strategy): [ChunkingStrategy, ChunkingParameters] => [
    strategy,
    { ...defaults(strategy), ...dataset?.parameters },
  ]);
  if (!choice.strategy) return planned;
  const chosen = choice.strategy;
  const bases = planned.filter(([strategy]) => strategy === chosen);
  if (planned.some(([strategy]) => strategy !== chosen)) bases.push([chosen, defaults(chosen)]);
  return bases;
}
