import type { TextLanguage } from '../../search/languageRouting';
import { rankAll, splitOf } from './breakdown';
import type { ParsedDoc } from './corpus';
import type { QuestionRun, Ranker } from './rankers';

/**
 * Each question's rank under every ranker, and the first ranker's top hit: its language, whether
 * it answers, and the start of its text (what a wrong-language top hit was).
 */
export function perQuestionRows(
  runs: readonly QuestionRun[],
  rankers: readonly Ranker[],
  docs: readonly ParsedDoc[],
  languageOfChunk: (chunkId: string) => TextLanguage | null,
) {
  const chunkText = new Map(docs.flatMap((d) => d.children.map((c) => [c.chunkId, c.text] as const)));
  const topOf = (run: QuestionRun, ranker: Ranker | undefined) => {
    const top = ranker?.rank(run)[0];
    if (top === undefined) return null;
    return {
      chunkId: top,
      language: languageOfChunk(top),
      relevant: run.relevant.has(top),
      text: (chunkText.get(top) ?? '').slice(0, 160),
    };
  };
  return runs.map((run) => ({
    id: run.question.id,
    set: run.question.set,
    style: run.question.style,
    language: run.question.language,
    split: splitOf(run),
    question: run.question.question,
    ranks: Object.fromEntries(rankers.map((r) => [r.name, rankAll([run], r, languageOfChunk)[0]?.rank ?? null])),
    firstRankerTop: topOf(run, rankers[0]),
  }));
}
