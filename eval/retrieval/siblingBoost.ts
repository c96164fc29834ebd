import type { TextLanguage } from '../../search/languageRouting';
import { breakdown, rankAll } from './breakdown';
import { MRR_AT } from './metrics';
import { fuseRun, type FusionSpec, type QuestionRun, type Ranker } from './rankers';

/** How many fused hits the pass re-scores: the depth a reranker would read. */
const DEPTH = 50;
/** The sibling weights the tuning families choose from; 0 is the fusion unchanged. */
export const SIBLING_WEIGHTS = [0, 0.1, 0.25, 0.5, 1] as const;

/**
 * Parent-passage scoring without a model: a child's fused score gains `weight` times the fused
 * scores of its siblings (the other children of its parent block) among the top hits. A passage
 * that several lists reach through different children is likely on the question's topic even
 * where the answering child alone ranks low, which is how a paraphrase's answer is often missed.
 */
export function siblingBoostRanker(
  name: string,
  spec: FusionSpec,
  languageOfChunk: (chunkId: string) => TextLanguage | null,
  parentOf: (chunkId: string) => string | null,
  weight: number,
): Ranker {
  return {
    name,
    rank(run) {
      const top = fuseRun(run, spec, languageOfChunk).slice(0, DEPTH);
      const byParent = new Map<string, number>();
      for (const hit of top) {
        const parent = parentOf(hit.chunkId);
        if (parent !== null) byParent.set(parent, (byParent.get(parent) ?? 0) + hit.score);
      }
      return top
        .map((hit, order) => {
          const parent = parentOf(hit.chunkId);
          const siblings = parent === null ? 0 : (byParent.get(parent) ?? 0) - hit.score;
          return { chunkId: hit.chunkId, score: hit.score + weight * siblings, order };
        })
        .sort((a, b) => b.score - a.score || a.order - b.order)
        .slice(0, MRR_AT)
        .map((h) => h.chunkId);
    },
  };
}

/** The sibling weight with the best recall@5 + MRR@10, summed over the languages, on `runs` (the tuning families). */
export function chooseSiblingWeight(
  runs: readonly QuestionRun[],
  spec: FusionSpec,
  languageOfChunk: (chunkId: string) => TextLanguage | null,
  parentOf: (chunkId: string) => string | null,
): number {
  let best: { weight: number; sum: number } | null = null;
  for (const weight of SIBLING_WEIGHTS) {
    const ranker = siblingBoostRanker('candidate', spec, languageOfChunk, parentOf, weight);
    const { byLanguage } = breakdown(runs, rankAll(runs, ranker, languageOfChunk));
    const sum = Object.values(byLanguage).reduce((s, v) => s + v.recallAt5 + v.mrrAt10, 0);
    if (best === null || sum > best.sum) best = { weight, sum };
  }
  return best?.weight ?? 0;
}
