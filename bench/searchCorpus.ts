import { BGE_MODEL_IDENTITIES, LOCAL_MODEL_IDENTITY } from '../contracts/localModel';
import { seededRandom } from '../contracts/seededRandom';

/**
 * The synthetic dataset of `npm run bench:search`, generated from a seed so that every run (and
 * the exact-scan check) sees the same chunks without keeping them in memory. Texts are words of a
 * Zipf-distributed vocabulary (one chunk in five Chinese, from two-character words), so keyword and
 * sparse lists have common and rare terms; dense vectors lie around 1,000 cluster centres, as the
 * vectors of similar passages do, rather than uniformly (no structure for a coarse pass to use).
 */

export const CLUSTERS = 1000;
const WORDS_PER_CHUNK = 80;
const LATIN_VOCABULARY = 20_000;
const HAN_VOCABULARY = 8000;
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'pe', 'sa', 'do', 'fu', 'gri', 'hel', 'jun', 'bor'];

function latinWord(rank: number): string {
  let word = '';
  for (let n = rank + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return word;
}

function hanWord(rank: number): string {
  return String.fromCharCode(0x4e00 + ((rank * 7) % 20000), 0x4e00 + ((rank * 13 + 5) % 20000));
}

/** A Zipf(1) rank in [0, size): common words often, rare words seldom. */
function zipfRank(next: () => number, size: number): number {
  return Math.min(size - 1, Math.floor(Math.exp(next() * Math.log(size + 1)) - 1));
}

export const isChinese = (index: number): boolean => index % 5 === 4;

/** Chunk `index`'s words with their vocabulary ranks (0 = the most common word). */
export function chunkWords(index: number): { word: string; rank: number }[] {
  const next = seededRandom(index * 2 + 1);
  const chinese = isChinese(index);
  return Array.from({ length: WORDS_PER_CHUNK }, () => {
    const rank = zipfRank(next, chinese ? HAN_VOCABULARY : LATIN_VOCABULARY);
    return { word: chinese ? hanWord(rank) : latinWord(rank), rank };
  });
}

export function chunkText(index: number): string {
  return chunkWords(index)
    .map((w) => w.word)
    .join(isChinese(index) ? '' : ' ');
}

/**
 * A query of four of the chunk's words, as a user types terms they remember of a passage: not its
 * 50 most common words, which in real text are function words the tokenizer drops.
 */
export function queryWords(index: number): string {
  const words = chunkWords(index).filter((w) => w.rank >= 50);
  return [0, 5, 11, 19]
    .map((at) => words[at % Math.max(1, words.length)]?.word ?? '')
    .join(isChinese(index) ? '' : ' ');
}

function unit(values: Float64Array): number[] {
  let norm = 0;
  for (const v of values) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  return Array.from(values, (v) => v / norm);
}

function gaussian(next: () => number): number {
  return Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
}

/** Chunk `index`'s vector of `dimension`: its cluster's centre plus noise of the same size. */
export function chunkVector(index: number, dimension: number, salt = 0): number[] {
  const centre = seededRandom(((index % CLUSTERS) + 1) * 7919 + dimension + salt);
  const noise = seededRandom(index * 104729 + dimension + salt + 3);
  const values = new Float64Array(dimension);
  for (let i = 0; i < dimension; i += 1) values[i] = gaussian(centre) + 0.9 * gaussian(noise);
  return unit(values);
}

/** A query near chunk `index`: its vector disturbed a little more. */
export function queryVectorNear(index: number, dimension: number, salt = 0): number[] {
  const base = chunkVector(index, dimension, salt);
  const noise = seededRandom(index * 31 + 17);
  return unit(Float64Array.from(base, (v) => v + 0.03 * gaussian(noise)));
}

/** The models the bench's vectors are stored under: the local profile's. */
export const BENCH_MODELS = {
  first: { model: LOCAL_MODEL_IDENTITY.name, dimension: LOCAL_MODEL_IDENTITY.dimension },
  en: { model: BGE_MODEL_IDENTITIES.en.name, dimension: BGE_MODEL_IDENTITIES.en.dimension },
  zh: { model: BGE_MODEL_IDENTITIES.zh.name, dimension: BGE_MODEL_IDENTITIES.zh.dimension },
};
