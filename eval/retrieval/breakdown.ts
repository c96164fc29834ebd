import { wantedLanguage, type TextLanguage } from '../../search/languageRouting';
import { scoresOf, type Scores } from './metrics';
import type { QuestionRun, Ranker } from './rankers';

export type Split = 'heldOut' | 'tuning' | 'tunedSets';

export function splitOf(run: QuestionRun): Split {
  if (run.question.tuned) return 'tunedSets';
  return run.question.heldOut ? 'heldOut' : 'tuning';
}

export interface RankedQuestion {
  id: string;
  rank: number | null;
  /** The language of the top hit, when it can be told. */
  topLanguage: TextLanguage | null;
}

export interface Breakdown {
  byLanguage: Record<string, Scores>;
  bySet: Record<string, Scores>;
  byStyle: Record<string, Scores>;
  /**
   * Questions not asked across languages whose top hit is in another language, by question
   * language. A question of identifiers only (`start-stop-daemon`) is in no language
   * (search/languageRouting.ts wantedLanguage), so its top hit is never in the wrong one.
   */
  wrongLanguageTop: Record<string, number>;
}

export function rankAll(
  runs: readonly QuestionRun[],
  ranker: Ranker,
  languageOfChunk: (chunkId: string) => TextLanguage | null,
): RankedQuestion[] {
  return runs.map((run) => {
    const ids = ranker.rank(run);
    const index = ids.findIndex((id) => run.relevant.has(id));
    const top = ids[0];
    return {
      id: run.question.id,
      rank: index === -1 ? null : index + 1,
      topLanguage: top === undefined ? null : languageOfChunk(top),
    };
  });
}

function groupScores(
  runs: readonly QuestionRun[],
  ranked: readonly RankedQuestion[],
  key: (run: QuestionRun) => string,
): Record<string, Scores> {
  const groups = new Map<string, (number | null)[]>();
  runs.forEach((run, i) => {
    const k = key(run);
    const ranks = groups.get(k) ?? [];
    ranks.push(ranked[i]?.rank ?? null);
    groups.set(k, ranks);
  });
  return Object.fromEntries([...groups.entries()].sort().map(([k, ranks]) => [k, scoresOf(ranks)]));
}

/** Scores of one ranker over the questions of one split, by language, set and style. */
export function breakdown(runs: readonly QuestionRun[], ranked: readonly RankedQuestion[]): Breakdown {
  const wrongLanguageTop: Record<string, number> = {};
  runs.forEach((run, i) => {
    const top = ranked[i]?.topLanguage ?? null;
    const language = run.question.language;
    wrongLanguageTop[language] ??= 0;
    const asksInALanguage = wantedLanguage(run.question.question) !== null;
    if (run.question.style !== 'cross-language' && asksInALanguage && top !== null && top !== language)
      wrongLanguageTop[language]++;
  });
  return {
    byLanguage: groupScores(runs, ranked, (r) => r.question.language),
    bySet: groupScores(runs, ranked, (r) => r.question.set),
    byStyle: groupScores(runs, ranked, (r) => r.question.style),
    wrongLanguageTop,
  };
}
