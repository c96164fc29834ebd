import type { SparseVector } from '../contracts/chunk';
import { fnv1a32 } from './fnv1a';

/**
 * BM25's term-frequency saturation: the second occurrence of a term adds much less than the first,
 * so a chunk repeating a word ten times does not outrank one that mentions it with other terms.
 */
const K1 = 1.2;

/**
 * The sparse-vector dimension of a term. Masked to 31 bits so it fits a signed 32-bit integer
 * column as well as Qdrant's u32 indices. Distinct terms may collide; their weights then add up,
 * which costs a little precision on rare pairs, never correctness.
 */
export function termId(term: string): number {
  return fnv1a32(term) & 0x7fffffff;
}

/**
 * Document-side weights: saturated term frequency, tf·(k1+1)/(tf+k1). There is no length
 * normalisation (BM25's b = 0) because children are already capped at maxTokens, so their lengths
 * vary little; IDF is not known per chunk and belongs to the store (e.g. Qdrant's `idf` modifier).
 */
export function sparseVectorFromTokens(tokens: string[]): SparseVector {
  const frequencies = new Map<string, number>();
  for (const token of tokens) frequencies.set(token, (frequencies.get(token) ?? 0) + 1);
  const weights = new Map<number, number>();
  for (const [term, tf] of frequencies) addWeight(weights, termId(term), (tf * (K1 + 1)) / (tf + K1));
  return toSparseVector(weights);
}

/** Query-side weights: each distinct query term counts once, as in BM25's query side. */
export function sparseQueryFromTokens(tokens: string[]): SparseVector {
  const weights = new Map<number, number>();
  for (const term of new Set(tokens)) addWeight(weights, termId(term), 1);
  return toSparseVector(weights);
}

function addWeight(weights: Map<number, number>, id: number, weight: number): void {
  weights.set(id, (weights.get(id) ?? 0) + weight);
}

function toSparseVector(weights: Map<number, number>): SparseVector {
  // A typed array sorts numerically without a comparator call per comparison.
  const indices = Array.from(Uint32Array.from(weights.keys()).sort());
  return { indices, values: indices.map((id) => weights.get(id) ?? 0) };
}
