import type { TextLanguage } from '../../search/languageRouting';
import type { FusionSettings } from '../../search/reciprocalRankFusion';
import { fusedScores, rankGrid } from './fusionGrid';
import type { FusionSpec, QuestionRun } from './rankers';

type LanguageOf = (chunkId: string) => TextLanguage | null;

/** The local profile's search as it is: the real embedder's dense list, sparse, Postgres FTS. */
export const LOCAL_LISTS = { dense: 'dense:model', sparse: 'sparse', keyword: 'keyword:postgres' };
/** The production profile's keyword index instead. */
export const PRODUCTION_LISTS = { ...LOCAL_LISTS, keyword: 'keyword:opensearch' };
/** What the levers are measured against: the search default before this eval (k 5, dense-led). */
export const PREVIOUS_DEFAULT: FusionSettings = { k: 5, weights: { dense: 1, sparse: 0.5, keyword: 0.1 } };

/** The second dense vector's list (eval/retrieval/retrieveLists.ts) and its lever. */
export const SECOND_DENSE_LIST = 'dense:bge';
export const SECOND_DENSE_LEVER = "second dense vector (bge of the chunk's language)";
const SECOND_DENSE_WEIGHTS = [0.5, 1, 1.5, 2];
export const NAMED_LANGUAGE_LEVER = 'a named language first';
const NAMED_LANGUAGE_FACTORS = [0, 0.25, 0.5];
export const IDENTIFIER_QUERY_LEVER = 'lexical lists lead a query of identifiers only';
const IDENTIFIER_QUERY_DENSE_FACTORS = [0, 0.25, 0.5, 1];

export interface Lever {
  name: string;
  /** What the lever changes, for the report. */
  what: string;
  spec: FusionSpec;
  /** Settings or factors chosen on the tuning families, for the report. */
  chosen: string;
}

const byLanguage = (runs: readonly QuestionRun[]): QuestionRun[][] =>
  (['en', 'zh'] as const).map((l) => runs.filter((r) => r.question.language === l));

const objective = (runs: readonly QuestionRun[], spec: FusionSpec, languageOf: LanguageOf): number =>
  byLanguage(runs)
    .map((group) => fusedScores(group, spec, languageOf))
    .reduce((sum, s) => sum + s.recallAt5 + s.mrrAt10, 0);

/** The candidate among `options` whose spec scores best on the tuning questions. */
export function pick<T>(
  options: readonly T[],
  toSpec: (o: T) => FusionSpec,
  tuning: readonly QuestionRun[],
  languageOf: LanguageOf,
): T {
  let best = options[0] as T;
  let bestScore = -Infinity;
  for (const option of options) {
    const score = objective(tuning, toSpec(option), languageOf);
    if (score > bestScore) [best, bestScore] = [option, score];
  }
  return best;
}

const describe = (s: FusionSettings): string =>
  `k=${s.k} ${Object.entries(s.weights)
    .map(([n, w]) => `${n}=${w}`)
    .join(' ')}`;

/**
 * Each lever as a fusion spec, its free parameters chosen on the tuning questions only (the
 * held-out families never reach a choice here). Whether a lever is kept is read off the held-out
 * figures afterwards, against the baseline (the search default as it was).
 */
export function buildLevers(tuning: readonly QuestionRun[], languageOf: LanguageOf, hasTitleSpace: boolean): Lever[] {
  const base: FusionSpec = { lists: LOCAL_LISTS, settings: PREVIOUS_DEFAULT };
  const levers: Lever[] = [];

  const factor = pick([0, 0.25, 0.5, 0.75], (f) => ({ ...base, otherLanguageFactor: f }), tuning, languageOf);
  levers.push({
    name: 'language routing',
    what: 'other-language hits scored × factor unless the question names the other language',
    spec: { ...base, otherLanguageFactor: factor },
    chosen: `factor ${factor}`,
  });

  // Routing as above, with a factor of its own for a question that names the language it wants.
  const named = pick(
    NAMED_LANGUAGE_FACTORS,
    (f) => ({ ...base, otherLanguageFactor: factor, namedLanguageFactor: f }),
    tuning,
    languageOf,
  );
  levers.push({
    name: NAMED_LANGUAGE_LEVER,
    what: 'language routing, with other-language hits × a factor of their own when the question names the language it wants',
    spec: { ...base, otherLanguageFactor: factor, namedLanguageFactor: named },
    chosen: `factor ${factor}, named ${named}`,
  });

  const grid = rankGrid(byLanguage(tuning), { lists: LOCAL_LISTS }, languageOf)[0]?.settings ?? PREVIOUS_DEFAULT;
  levers.push({
    name: 'weights re-tuned on the new sets',
    what: 'the fusion grid run on the tuning families (all languages together)',
    spec: { ...base, settings: grid },
    chosen: describe(grid),
  });

  const perLanguage = Object.fromEntries(
    (['en', 'zh'] as const).map((l) => [
      l,
      rankGrid([tuning.filter((r) => r.question.language === l)], { lists: LOCAL_LISTS }, languageOf)[0]?.settings ??
        PREVIOUS_DEFAULT,
    ]),
  ) as Record<TextLanguage, FusionSettings>;
  levers.push({
    name: 'per-language weights',
    what: 'a grid per question language on the tuning families',
    spec: { ...base, settings: perLanguage },
    chosen: `en ${describe(perLanguage.en)}; zh ${describe(perLanguage.zh)}`,
  });

  const idWeight = pick(
    [0.1, 0.25, 0.5, 1, 1.5],
    (w) => ({
      lists: { ...LOCAL_LISTS, identifier: 'identifier:postgres' },
      settings: { k: PREVIOUS_DEFAULT.k, weights: { ...PREVIOUS_DEFAULT.weights, identifier: w } },
    }),
    tuning,
    languageOf,
  );
  levers.push({
    name: 'identifier-aware keyword query',
    what: 'a keyword query on the identifiers alone (search/identifierTerms.ts), fused as a fourth list',
    spec: {
      lists: { ...LOCAL_LISTS, identifier: 'identifier:postgres' },
      settings: { k: PREVIOUS_DEFAULT.k, weights: { ...PREVIOUS_DEFAULT.weights, identifier: idWeight } },
    },
    chosen: `identifier weight ${idWeight}`,
  });

  const secondDense = (w: number): FusionSpec => ({
    ...base,
    lists: { ...LOCAL_LISTS, languageDense: SECOND_DENSE_LIST },
    settings: { k: PREVIOUS_DEFAULT.k, weights: { ...PREVIOUS_DEFAULT.weights, languageDense: w } },
  });
  const secondWeight = pick(SECOND_DENSE_WEIGHTS, secondDense, tuning, languageOf);
  levers.push({
    name: SECOND_DENSE_LEVER,
    what: "each child also embedded by bge-small of its language, queried by the question's language's model",
    spec: secondDense(secondWeight),
    chosen: `second dense weight ${secondWeight}`,
  });

  const identifierFactor = pick(
    IDENTIFIER_QUERY_DENSE_FACTORS,
    (f) => ({ ...base, identifierQueryDenseFactor: f }),
    tuning,
    languageOf,
  );
  levers.push({
    name: IDENTIFIER_QUERY_LEVER,
    what: 'the dense lists weighted × factor when the query is identifiers only (no word beside them)',
    spec: { ...base, identifierQueryDenseFactor: identifierFactor },
    chosen: `dense factor ${identifierFactor}`,
  });

  if (hasTitleSpace)
    levers.push({
      name: 'document title in the embedded text',
      what: "each child embedded as '<document title>\\n<child text>'",
      spec: { ...base, lists: { ...LOCAL_LISTS, dense: 'dense:model+title' } },
      chosen: '-',
    });

  levers.push({
    name: 'OpenSearch BM25 (production profile)',
    what: 'the production keyword index in place of Postgres FTS, same weights',
    spec: { ...base, lists: PRODUCTION_LISTS },
    chosen: '-',
  });
  return levers;
}
