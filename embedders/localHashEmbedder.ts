import { permanentError } from '../contracts/sluiceError';
import { fnv1a32 } from '../sparse/fnv1a';
import { tokenize } from '../tokenizer/tokenize';
import type { Embedder } from './embedder';

export const LOCAL_HASH_MODEL = 'local-hash-v1';

/**
 * Whole words dominate; trigrams add a softer match between inflections and near-spellings
 * (index/indexing, retry/retries) that whole-word hashing alone would treat as unrelated.
 */
const TERM_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.35;

/**
 * The embedded default embedder: feature hashing of tokenize() terms and their character trigrams
 * into `dimension` signed buckets, L2-normalised. Deterministic and offline, so the pipeline and
 * its tests run without a model server; texts sharing words get clearly higher cosine similarity,
 * which is all a demo of dense search needs. Not a semantic model: synonyms do not meet.
 */
export function createLocalHashEmbedder(options: { dimension: number }): Embedder {
  const { dimension } = options;
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw permanentError(
      'EMBEDDING_DIMENSION_UNSUPPORTED',
      `local hash embedder needs a positive integer dimension, got ${dimension}`,
    );
  }
  return {
    model: LOCAL_HASH_MODEL,
    dimension,
    embed: (texts) => Promise.resolve(texts.map((text) => embedText(text, dimension))),
  };
}

function embedText(text: string, dimension: number): number[] {
  const vector = new Float64Array(dimension);
  for (const term of tokenize(text)) {
    addFeature(vector, `w:${term}`, TERM_WEIGHT);
    for (const trigram of trigramsOf(term)) addFeature(vector, `g:${trigram}`, TRIGRAM_WEIGHT);
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  if (norm === 0) {
    // Text without any term (punctuation only, empty): one fixed unit bucket keeps cosine defined.
    vector[0] = 1;
    return Array.from(vector);
  }
  return Array.from(vector, (value) => value / norm);
}

/** Boundary markers make a word's first and last letters count, as in fastText's subwords. */
function trigramsOf(term: string): string[] {
  const chars = Array.from(`<${term}>`);
  const trigrams: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.push(chars.slice(i, i + 3).join(''));
  return trigrams;
}

/**
 * Signed hashing: the sign comes from other bits of the hash than the bucket, so colliding
 * features cancel out on average instead of piling up (Weinberger et al., 2009).
 */
function addFeature(vector: Float64Array, feature: string, weight: number): void {
  const hash = fnv1a32(feature);
  const bucket = hash % vector.length;
  const sign = mix32(hash) >>> 31 === 0 ? 1 : -1;
  vector[bucket] = (vector[bucket] ?? 0) + sign * weight;
}

/** MurmurHash3's 32-bit finaliser: spreads every input bit over the top bit used for the sign. */
function mix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
