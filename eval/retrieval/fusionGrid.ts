import type { TextLanguage } from '../../search/languageRouting';
import { RRF_K, type FusionSettings } from '../../search/reciprocalRankFusion';
import { firstRelevantRank, MRR_AT, scoresOf, type Scores } from './metrics';
import { fuseRun, type FusionSpec, type QuestionRun } from './rankers';

/** What search did before any tuning: plain RRF, k = 60, every retriever weighted 1. */
export const PLAIN_RRF: FusionSettings = { k: RRF_K, weights: { dense: 1, sparse: 1, keyword: 1, identifier: 1 } };

const K_VALUES = [1, 2, 5, 10, 20, 40, 60, 100];
/**
 * Relative to dense = 1: scaling every weight by one factor ranks the same, so dense stays fixed.
 * No zero: dropping a retriever is a design decision, not a tuning result.
 */
const LEXICAL_WEIGHTS = [0.1, 0.25, 0.5, 0.75, 1, 1.5];

interface GridCell {
  settings: FusionSettings;
  /** Indices into K_VALUES and LEXICAL_WEIGHTS per tuned weight, to find neighbours. */
  at: number[];
}

function gridCells(tuned: readonly string[], fixed: Record<string, number>): GridCell[] {
  let cells: GridCell[] = K_VALUES.map((k, ki) => ({ settings: { k, weights: { ...fixed, dense: 1 } }, at: [ki] }));
  for (const name of tuned) {
    cells = cells.flatMap((cell) =>
      LEXICAL_WEIGHTS.map((w, wi) => ({
        settings: { k: cell.settings.k, weights: { ...cell.settings.weights, [name]: w } },
        at: [...cell.at, wi],
      })),
    );
  }
  return cells;
}

export function fusedScores(
  runs: readonly QuestionRun[],
  spec: FusionSpec,
  languageOfChunk: (chunkId: string) => TextLanguage | null,
): Scores {
  return scoresOf(
    runs.map((run) => firstRelevantRank(fuseRun(run, spec, languageOfChunk).slice(0, MRR_AT), run.relevant)),
  );
}

export interface GridPoint {
  settings: FusionSettings;
  /** Mean over the target sets (one per language), so the smaller set counts as much as the larger. */
  recallAt5: number;
  mrrAt10: number;
  recallAt5PerSet: number[];
  /** The mean objective over this cell and its grid neighbours: what the choice is made on. */
  smoothed: number;
}

/**
 * Every grid cell scored on the given targets (the tuning families only: held-out questions must
 * never reach here), best first. Cells are ranked by the mean of recall@5 + MRR@10 over their
 * neighbourhood (one step in k and in each weight), so the choice is the middle of a good region
 * rather than a lone peak that a question or two put there. A list in `fixed` keeps the weight
 * given there (each list tuned multiplies the grid by six).
 */
export function rankGrid(
  targets: readonly (readonly QuestionRun[])[],
  base: Omit<FusionSpec, 'settings'>,
  languageOfChunk: (chunkId: string) => TextLanguage | null,
  fixed: Record<string, number> = {},
): GridPoint[] {
  const tuned = Object.keys(base.lists).filter((name) => name !== 'dense' && !(name in fixed));
  const cells = gridCells(tuned, fixed);
  const scored = cells.map((cell) => {
    const perSet = targets.map((runs) => fusedScores(runs, { ...base, settings: cell.settings }, languageOfChunk));
    const mean = (pick: (s: Scores) => number): number =>
      perSet.reduce((sum, s) => sum + pick(s), 0) / Math.max(1, perSet.length);
    return {
      settings: cell.settings,
      recallAt5: mean((s) => s.recallAt5),
      mrrAt10: mean((s) => s.mrrAt10),
      recallAt5PerSet: perSet.map((s) => s.recallAt5),
    };
  });
  const raw = scored.map((s) => s.recallAt5 + s.mrrAt10);
  return cells
    .map((cell, i) => {
      const near = cells.flatMap((other, j) =>
        other.at.every((v, d) => Math.abs(v - (cell.at[d] ?? 0)) <= 1) ? [raw[j] ?? 0] : [],
      );
      return {
        ...(scored[i] as Omit<GridPoint, 'smoothed'>),
        smoothed: near.reduce((a, b) => a + b, 0) / near.length,
        exact: raw[i] ?? 0,
      };
    })
    .sort((a, b) => b.smoothed - a.smoothed || b.exact - a.exact)
    .map(({ exact: _exact, ...point }) => point);
}
