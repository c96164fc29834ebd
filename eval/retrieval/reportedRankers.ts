import { LANGUAGE_ROUTING, type TextLanguage } from '../../search/languageRouting';
import { DEFAULT_FUSION } from '../../search/reciprocalRankFusion';
import { DEFAULT_SEARCH_SETTINGS, IDENTIFIER_QUERY_DENSE_FACTOR } from '../../search/searchSettings';
import { LOCAL_LISTS, PREVIOUS_DEFAULT, PRODUCTION_LISTS } from './levers';
import { fusedRanker, singleList, type Ranker } from './rankers';

/**
 * What hybridSearch does without the second dense vector (SLUICE_LANGUAGE_DENSE=off, or `auto` where
 * its models are not installed): its lists, DEFAULT_FUSION, language routing, and the lexical lists
 * alone for a query of identifiers only.
 */
export const SEARCH_WITHOUT_SECOND_DENSE = {
  lists: { ...LOCAL_LISTS, identifier: 'identifier:postgres' },
  settings: DEFAULT_FUSION,
  ...LANGUAGE_ROUTING,
  identifierQueryDenseFactor: IDENTIFIER_QUERY_DENSE_FACTOR,
};
/**
 * Search with SLUICE_PASSAGE_WINDOWS=on (SLUICE_LANGUAGE_DENSE=auto where the models are installed,
 * as the stack installs them): the lists above, the second dense list (the bge model of the
 * question's language) and its passage windows' list, at their default weights.
 */
export const SEARCH_WITH_WINDOWS = {
  ...SEARCH_WITHOUT_SECOND_DENSE,
  lists: { ...SEARCH_WITHOUT_SECOND_DENSE.lists, languageDense: 'dense:bge', passage: 'dense:window' },
  settings: {
    ...DEFAULT_FUSION,
    weights: {
      ...DEFAULT_FUSION.weights,
      languageDense: DEFAULT_SEARCH_SETTINGS.weights.languageDense,
      passage: DEFAULT_SEARCH_SETTINGS.weights.passage,
    },
  },
};

/** The lists whose candidates the passage windows' list scores: every other list the search fuses. */
export const SEARCH_CANDIDATE_LISTS: string[] = Object.entries(SEARCH_WITH_WINDOWS.lists)
  .filter(([kind]) => kind !== 'passage')
  .map(([, list]) => list);

/** Search with the passage windows' list at another weight (0: without it). */
export function withPassageWeight(weight: number): typeof SEARCH_WITH_WINDOWS {
  return {
    ...SEARCH_WITH_WINDOWS,
    settings: {
      ...SEARCH_WITH_WINDOWS.settings,
      weights: { ...SEARCH_WITH_WINDOWS.settings.weights, passage: weight },
    },
  };
}

/**
 * The search default: SLUICE_PASSAGE_WINDOWS is off by default (their VECTORIZING cost, docs/search.md),
 * so no window exists and the passage list is empty, as at weight 0.
 */
const { passage: _windows, ...listsWithoutWindows } = SEARCH_WITH_WINDOWS.lists;
export const SEARCH_DEFAULT = { ...withPassageWeight(0), lists: listsWithoutWindows };

/**
 * What the report shows, first the search default (the CI floors are read off it): the fusions
 * search runs, then each single retriever.
 */
export function reportedRankers(
  hasOpenSearch: boolean,
  languageOfChunk: (chunkId: string) => TextLanguage | null,
): Ranker[] {
  return [
    fusedRanker('fused (search default)', SEARCH_DEFAULT, languageOfChunk),
    fusedRanker('fused, passage windows on', SEARCH_WITH_WINDOWS, languageOfChunk),
    fusedRanker('fused (search default, no second dense vector)', SEARCH_WITHOUT_SECOND_DENSE, languageOfChunk),
    ...(hasOpenSearch
      ? [
          fusedRanker(
            'fused, production keyword index',
            {
              ...SEARCH_DEFAULT,
              lists: { ...SEARCH_DEFAULT.lists, ...PRODUCTION_LISTS, identifier: 'identifier:opensearch' },
            },
            languageOfChunk,
          ),
        ]
      : []),
    fusedRanker(
      'fused (search default, a named language routed as the question’s own)',
      { ...SEARCH_DEFAULT, namedLanguageFactor: LANGUAGE_ROUTING.otherLanguageFactor },
      languageOfChunk,
    ),
    fusedRanker(
      'fused, hashing embedder',
      { ...SEARCH_DEFAULT, lists: { ...SEARCH_DEFAULT.lists, dense: 'dense:hash' } },
      languageOfChunk,
    ),
    fusedRanker('fused (previous default)', { lists: LOCAL_LISTS, settings: PREVIOUS_DEFAULT }, languageOfChunk),
    singleList('dense (USE)', 'dense:model'),
    singleList('dense (hashing)', 'dense:hash'),
    singleList('dense (bge, question language)', 'dense:bge'),
    singleList('dense (bge passage windows)', 'dense:window'),
    singleList('sparse', 'sparse'),
    singleList('keyword (Postgres FTS)', 'keyword:postgres'),
    ...(hasOpenSearch ? [singleList('keyword (OpenSearch BM25)', 'keyword:opensearch')] : []),
  ];
}
