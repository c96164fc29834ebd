import type { SearchHit } from '../../stores/ports';

/** recall@5 and MRR over the first 10 results: the cut-offs the goals (goals.ts) are stated in. */
export const RECALL_AT = 5;
export const MRR_AT = 10;

export interface Scores {
  recallAt5: number;
  mrrAt10: number;
  questions: number;
}

/** 1-based rank of the first relevant hit, or null when none is in the list. */
export function firstRelevantRank(
  hits: readonly Pick<SearchHit, 'chunkId'>[],
  relevant: ReadonlySet<string>,
): number | null {
  const index = hits.findIndex((h) => relevant.has(h.chunkId));
  return index === -1 ? null : index + 1;
}

/**
 * Each question has one answering passage, so recall@5 is the share of questions whose passage
 * is in the top 5, and MRR the mean of 1/rank within the top 10 (0 beyond).
 */
export function scoresOf(ranks: readonly (number | null)[]): Scores {
  const n = ranks.length;
  if (n === 0) return { recallAt5: 0, mrrAt10: 0, questions: 0 };
  let hits = 0;
  let reciprocal = 0;
  for (const rank of ranks) {
    if (rank !== null && rank <= RECALL_AT) hits++;
    if (rank !== null && rank <= MRR_AT) reciprocal += 1 / rank;
  }
  return { recallAt5: hits / n, mrrAt10: reciprocal / n, questions: n };
}
