import { sparseQueryFromTokens, sparseVectorFromTokens } from '../../sparse/sparseVector';
import { tokenize } from '../../tokenizer/tokenize';

/**
 * What the adversarial tests check of tokenize() and the sparse weighting of its terms, computed
 * where they run (a worker thread, see offThread.ts), so only this summary crosses back.
 */
export interface TokenSummary {
  count: number;
  /** The first 20 distinct terms, in order of appearance. */
  firstDistinct: string[];
  distinct: number;
  longest: number;
  /** Dimensions of the document-side vector; fewer than `distinct` only by hash collisions. */
  vectorTerms: number;
  queryTerms: number;
  /** Indices strictly increasing, weights finite, positive and below BM25's cap of k1 + 1. */
  wellFormed: boolean;
}

const MAX_WEIGHT = 2.2;

export function summarizeTokens(text: string): TokenSummary {
  const tokens = tokenize(text);
  const distinct = new Set(tokens);
  const vector = sparseVectorFromTokens(tokens);
  const increasing = vector.indices.every((index, i) => i === 0 || index > vector.indices[i - 1]!);
  const bounded = vector.values.every((value) => Number.isFinite(value) && value > 0 && value < MAX_WEIGHT);
  let longest = 0;
  for (const token of distinct) if (token.length > longest) longest = token.length;
  return {
    count: tokens.length,
    firstDistinct: [...distinct].slice(0, 20),
    distinct: distinct.size,
    longest,
    vectorTerms: vector.indices.length,
    queryTerms: sparseQueryFromTokens(tokens).indices.length,
    wellFormed: increasing && bounded && vector.values.length === vector.indices.length,
  };
}
