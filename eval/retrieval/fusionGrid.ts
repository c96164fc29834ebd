import type { RetrieverLists } from '../../search/hybridSearch';
import { reciprocalRankFusion, RRF_K, type FusionSettings } from '../../search/reciprocalRankFusion';
import { firstRelevantRank, MRR_AT, scoresOf, type Scores } from './metrics';

export interface QuestionRun {
  id: string;
  lists: RetrieverLists;
  relevant: ReadonlySet<string>;
}

/** What search did before this tuning: plain RRF, k = 60, every retriever weighted 1. */
export const PLAIN_RRF: FusionSettings = { k: RRF_K, weights: { dense: 1, sparse: 1, keyword: 1 } };

const K_VALUES = [1, 2, 5, 10, 20, 40, 60, 100];
/**
 * Relative to dense = 1: scaling every weight by one factor ranks the same, so dense stays fixed.
 * No zero: dropping a retriever is a design decision, not a tuning result, and the production
 * profile's keyword index (OpenSearch BM25) is not the one measured here.
 */
const LEXICAL_WEIGHTS = [0.1, 0.25, 0.5, 0.75, 1, 1.5];

interface GridCell {
  settings: FusionSettings;
  /** Indices into K_VALUES and LEXICAL_WEIGHTS (sparse, keyword), to find neighbours. */
  at: [number, number, number];
}

function gridCells(): GridCell[] {
  const cells: GridCell[] = [];
  K_VALUES.forEach((k, ki) =>
    LEXICAL_WEIGHTS.forEach((sparse, si) =>
      LEXICAL_WEIGHTS.forEach((keyword, wi) =>
        cells.push({ settings: { k, weights: { dense: 1, sparse, keyword } }, at: [ki, si, wi] }),
      ),
    ),
  );
  return cells;
}

export function fusedRank(question: QuestionRun, settings: FusionSettings): number | null {
  return firstRelevantRank(reciprocalRankFusion(question.lists, settings).slice(0, MRR_AT), question.relevant);
}

export function fusedScores(questions: readonly QuestionRun[], settings: FusionSettings): Scores {
  return scoresOf(questions.map((q) => fusedRank(q, settings)));
}

export interface GridPoint {
  settings: FusionSettings;
  /** Mean over the target sets (one per language), so the smaller Chinese set counts as much as the English. */
  recallAt5: number;
  mrrAt10: number;
  /** Recall@5 of each target set (language), in the order given. */
  recallAt5PerSet: number[];
  /** The mean objective over this cell and its grid neighbours: what the choice is made on. */
  smoothed: number;
}

/**
 * What the tuning maximises: recall@5 and MRR@10 together. Recall alone moves in steps of one
 * question and ties across much of the grid; MRR tells those settings apart by how high the answer sits.
 */
const objective = (p: Pick<GridPoint, 'recallAt5' | 'mrrAt10'>): number => p.recallAt5 + p.mrrAt10;

export function scoreSetting(
  targets: readonly (readonly QuestionRun[])[],
  settings: FusionSettings,
): Omit<GridPoint, 'smoothed'> {
  const scores = targets.map((questions) => fusedScores(questions, settings));
  const mean = (pick: (s: Scores) => number): number =>
    scores.reduce((sum, s) => sum + pick(s), 0) / Math.max(1, scores.length);
  return {
    settings,
    recallAt5: mean((s) => s.recallAt5),
    mrrAt10: mean((s) => s.mrrAt10),
    recallAt5PerSet: scores.map((s) => s.recallAt5),
  };
}

/**
 * Every grid cell scored, best first. Cells are ranked by the mean over their neighbourhood (one
 * step in k and in each weight), so the choice is the middle of a good region rather than a lone
 * peak that a question or two put there: with 25 to 63 questions a peak is mostly noise.
 */
export function rankGrid(targets: readonly (readonly QuestionRun[])[]): GridPoint[] {
  const cells = gridCells();
  const raw = cells.map((cell) => objective(scoreSetting(targets, cell.settings)));
  const points = cells.map((cell, i) => {
    const near = cells.flatMap((other, j) =>
      other.at.every((v, d) => Math.abs(v - (cell.at[d] ?? 0)) <= 1) ? [raw[j] ?? 0] : [],
    );
    const scored = scoreSetting(targets, cell.settings);
    return { ...scored, smoothed: near.reduce((a, b) => a + b, 0) / near.length, exact: raw[i] ?? 0 };
  });
  return points
    .sort((a, b) => b.smoothed - a.smoothed || b.exact - a.exact)
    .map(({ exact: _exact, ...point }) => point);
}

/**
 * Two-fold check against overfitting: the grid is tuned on the even-numbered questions of every
 * set and scored on the odd ones, then the other way round; the mean held-out score is what the
 * tuning can be expected to give on questions it never saw (compare plain RRF on the same halves).
 */
export function crossValidate(targets: readonly (readonly QuestionRun[])[]): {
  recallAt5: number;
  mrrAt10: number;
  plainRecallAt5: number;
  plainMrrAt10: number;
  picks: FusionSettings[];
} {
  const half = (parity: number) => targets.map((questions) => questions.filter((_, i) => i % 2 === parity));
  const folds = [0, 1].map((parity) => {
    const pick = rankGrid(half(parity))[0]?.settings ?? PLAIN_RRF;
    return { pick, held: scoreSetting(half(1 - parity), pick), plain: scoreSetting(half(1 - parity), PLAIN_RRF) };
  });
  const mean = (pick: (f: (typeof folds)[number]) => number): number =>
    folds.reduce((sum, f) => sum + pick(f), 0) / folds.length;
  return {
    recallAt5: mean((f) => f.held.recallAt5),
    mrrAt10: mean((f) => f.held.mrrAt10),
    plainRecallAt5: mean((f) => f.plain.recallAt5),
    plainMrrAt10: mean((f) => f.plain.mrrAt10),
    picks: folds.map((f) => f.pick),
  };
}
