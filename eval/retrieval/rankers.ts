import { reciprocalRankFusion, type FusionSettings } from '../../search/reciprocalRankFusion';
import { isIdentifierQuery } from '../../search/identifierTerms';
import { identifierQueryWeights } from '../../search/searchSettings';
import { routeByLanguage, type TextLanguage } from '../../search/languageRouting';
import type { SearchHit } from '../../stores/ports';
import type { EvalQuestion } from './labels';
import { MRR_AT } from './metrics';
import type { QuestionLists } from './retrieveLists';

/** One question with every list it got and the chunks that answer it. */
export interface QuestionRun {
  question: EvalQuestion;
  lists: QuestionLists;
  relevant: ReadonlySet<string>;
}

/** A way to rank one question's candidates: a single list, or a fusion of several. */
export interface Ranker {
  name: string;
  rank(run: QuestionRun): string[];
}

export function singleList(name: string, list: string): Ranker {
  return { name, rank: (run) => (run.lists[list] ?? []).slice(0, MRR_AT).map((h) => h.chunkId) };
}

export interface FusionSpec {
  /** Fusion list name (dense, sparse, keyword, identifier) → the question's list it takes. */
  lists: Record<string, string>;
  /** The settings, or per question language (language-aware weights). */
  settings: FusionSettings | Record<TextLanguage, FusionSettings>;
  /** Language routing (search/languageRouting.ts): the factor on other-language hits; absent = off. */
  otherLanguageFactor?: number;
  /** The factor when the question named the language it wants; absent = otherLanguageFactor. */
  namedLanguageFactor?: number;
  /**
   * The factor on the dense lists' weights for a query of identifiers only, which also drops its
   * identifier list (identifierQueryWeights); absent = neither.
   */
  identifierQueryDenseFactor?: number;
}

const isPerLanguage = (s: FusionSpec['settings']): s is Record<TextLanguage, FusionSettings> => 'en' in s;

/** The fused hits of one question, before the cut to the top. */
export function fuseRun(
  run: QuestionRun,
  spec: FusionSpec,
  languageOfChunk: (chunkId: string) => TextLanguage | null,
): { chunkId: string; score: number }[] {
  const picked: Record<string, SearchHit[]> = {};
  for (const [fusionName, list] of Object.entries(spec.lists)) picked[fusionName] = run.lists[list] ?? [];
  const chosen = isPerLanguage(spec.settings) ? spec.settings[run.question.language] : spec.settings;
  const factor = spec.identifierQueryDenseFactor;
  const settings =
    factor !== undefined && isIdentifierQuery(run.question.question)
      ? { ...chosen, weights: identifierQueryWeights(chosen.weights, factor) }
      : chosen;
  const fused = reciprocalRankFusion(picked, settings);
  if (spec.otherLanguageFactor === undefined) return fused;
  return routeByLanguage(fused, (h) => languageOfChunk(h.chunkId), run.question.question, {
    otherLanguageFactor: spec.otherLanguageFactor,
    namedLanguageFactor: spec.namedLanguageFactor ?? spec.otherLanguageFactor,
  });
}

export function fusedRanker(
  name: string,
  spec: FusionSpec,
  languageOfChunk: (chunkId: string) => TextLanguage | null,
): Ranker {
  return {
    name,
    rank: (run) =>
      fuseRun(run, spec, languageOfChunk)
        .slice(0, MRR_AT)
        .map((h) => h.chunkId),
  };
}
