import type { TextLanguage } from '../../search/languageRouting';
import { breakdown, rankAll } from './breakdown';
import type { Language } from './corpus';
import type { QuestionRun, Ranker } from './rankers';

/**
 * The languages whose recall@5 under `ranker`, over every question of the run, is below its
 * floor. Every question counts, not the held-out families alone: the CI size's corpus is nearly
 * all tuning-side families (split.ts), so its floors guard against a regression in search; how
 * well search carries over to unseen manuals is the full run's held-out figure.
 */
export function floorFailures(
  runs: readonly QuestionRun[],
  ranker: Ranker,
  languageOfChunk: (chunkId: string) => TextLanguage | null,
  floors: Partial<Record<Language, number>>,
): string[] {
  const { byLanguage } = breakdown(runs, rankAll(runs, ranker, languageOfChunk));
  return (Object.entries(floors) as [Language, number][])
    .filter(([language, floor]) => (byLanguage[language]?.recallAt5 ?? 0) < floor)
    .map(([language, floor]) => {
      const got = byLanguage[language];
      return `${ranker.name} recall@5 in ${language} is ${(got?.recallAt5 ?? 0).toFixed(3)} over ${got?.questions ?? 0} questions, below the floor ${floor}`;
    });
}
