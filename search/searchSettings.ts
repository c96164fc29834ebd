import type { DenseModelChoice, SearchRetriever, SearchSettingsInput } from '../contracts/searchSettings';
import { DEFAULT_FUSION, type FusionSettings } from './reciprocalRankFusion';

/** The settings one search runs with: every field decided. */
export interface SearchSettings {
  rrfK: number;
  weights: Record<SearchRetriever, number>;
  denseModels: DenseModelChoice[];
  /** Whether the user's reranker, where they have one, reorders the fused candidates. */
  rerank: boolean;
  /** How many fused candidates it is sent; null: the deployment's SLUICE_RERANK_CANDIDATES. */
  rerankCandidates: number | null;
}

/**
 * The passage windows' list (chunker/passageWindows.ts) beside the child list of the same model:
 * chosen on the retrieval eval's tuning families from 0, 0.5, 1, 1.5 and 2 (docs/retrieval-eval.md).
 */
export const PASSAGE_WEIGHT = 1;

/**
 * The deployment's defaults: the tuned fusion (search/reciprocalRankFusion.ts) and, for the second
 * dense vector, the weight of the first: the two were fused with equal weight when the second was
 * measured, and eval:retrieval's held-out split decides whether that stays.
 */
export const DEFAULT_SEARCH_SETTINGS: SearchSettings = {
  rrfK: DEFAULT_FUSION.k,
  weights: {
    dense: DEFAULT_FUSION.weights.dense ?? 1,
    languageDense: DEFAULT_FUSION.weights.dense ?? 1,
    passage: PASSAGE_WEIGHT,
    sparse: DEFAULT_FUSION.weights.sparse ?? 1,
    keyword: DEFAULT_FUSION.weights.keyword ?? 1,
    identifier: DEFAULT_FUSION.weights.identifier ?? 1,
  },
  denseModels: ['user', 'language'],
  rerank: true,
  rerankCandidates: null,
};

/**
 * Each layer's fields over the one before: the defaults, then the dataset's `search` section, then
 * a hit test's adjustment (which changes nothing stored).
 */
export function resolveSearchSettings(...layers: (SearchSettingsInput | undefined)[]): SearchSettings {
  let settings: SearchSettings = { ...DEFAULT_SEARCH_SETTINGS, weights: { ...DEFAULT_SEARCH_SETTINGS.weights } };
  for (const layer of layers) {
    if (!layer) continue;
    settings = {
      rrfK: layer.rrfK ?? settings.rrfK,
      weights: { ...settings.weights, ...layer.weights },
      denseModels: layer.denseModels ?? settings.denseModels,
      rerank: layer.rerank ?? settings.rerank,
      rerankCandidates: layer.rerankCandidates ?? settings.rerankCandidates,
    };
  }
  return settings;
}

/** What reciprocalRankFusion takes. */
export function fusionOf(settings: SearchSettings): FusionSettings {
  return { k: settings.rrfK, weights: settings.weights };
}

/** Whether a list is asked at all: a weight of 0 adds nothing, and a dense model not chosen is not queried. */
export function asks(settings: SearchSettings, retriever: SearchRetriever): boolean {
  if (settings.weights[retriever] <= 0) return false;
  if (retriever === 'dense') return settings.denseModels.includes('user');
  if (retriever === 'languageDense' || retriever === 'passage') return settings.denseModels.includes('language');
  return true;
}

/**
 * What a query of identifiers only (`start-stop-daemon`, `/var/lib/dpkg/info`) multiplies the
 * dense lists' weights by: 0, so they are not asked. An embedder ranks such a query's neighbours
 * by how the string looks, not by what names it; the lexical lists find the passages that name
 * it. Chosen on the retrieval eval's tuning half from 0, 0.25, 0.5 and 1 (docs/retrieval-eval.md).
 */
export const IDENTIFIER_QUERY_DENSE_FACTOR = 0;

/**
 * The weights of a query of identifiers only: the dense lists' (an absent weight counts as 1) ×
 * `factor`, and no identifier list. The query's identifiers are the whole query, so that list would
 * be the keyword list asked again and count the keyword index twice: on the retrieval eval's tuning
 * half, dropping it took such questions' recall@5 from 0.882 to 0.941 on the local profile.
 */
export function identifierQueryWeights<W extends Partial<Record<SearchRetriever, number>>>(
  weights: W,
  factor: number,
): W {
  return {
    ...weights,
    dense: (weights.dense ?? 1) * factor,
    languageDense: (weights.languageDense ?? 1) * factor,
    passage: (weights.passage ?? 1) * factor,
    identifier: 0,
  };
}

/** The settings a query of identifiers only runs with (identifierQueryWeights). */
export function forIdentifierQuery(settings: SearchSettings, factor = IDENTIFIER_QUERY_DENSE_FACTOR): SearchSettings {
  return { ...settings, weights: identifierQueryWeights(settings.weights, factor) };
}
