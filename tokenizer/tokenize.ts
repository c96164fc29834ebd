import { STOP_WORDS } from './stopWords';

/**
 * One segmenter for the process: construction loads ICU break data. The 'zh' locale makes ICU use
 * its CJK dictionary so Chinese runs are cut into words rather than left as one long "word";
 * Latin text segments the same under any locale.
 */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Joiners inside identifiers such as `pg_stat_activity`, `FORM-2024-001` or `node.js`. */
const JOINERS = new Set(['_', '-', '.']);

/** CJK words never merge through joiners: "文档-切分" is two words, not one identifier. */
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;

const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Longer "words" are base64 blobs, hashes or minified code, not search terms; they also exceed
 * keyword-index limits (Postgres rejects lexemes over 2 KB).
 */
const MAX_TOKEN_LENGTH = 64;

/**
 * Text to index/search terms: the one tokenizer behind keyword indexing, sparse vectors and the
 * local embedder, so documents and queries always meet in the same term space. Deterministic.
 */
export function tokenize(text: string): string[] {
  // NFKC folds full-width forms (ｆｕｌｌ, ２０２４) and ligatures; the typographic apostrophe
  // is folded so "it’s" and "it's" are one term.
  const normalized = text.normalize('NFKC').toLowerCase().replace(/\u2019/g, "'");
  const tokens: string[] = [];
  let word = '';
  let pendingJoiner = '';

  const flush = (): void => {
    if (word !== '' && isKept(word)) tokens.push(word);
    word = '';
    pendingJoiner = '';
  };

  for (const { segment, isWordLike } of segmenter.segment(normalized)) {
    if (isWordLike) {
      if (pendingJoiner !== '' && !CJK.test(segment)) {
        word += pendingJoiner + segment;
        pendingJoiner = '';
      } else {
        flush();
        word = segment;
      }
    } else if (word !== '' && pendingJoiner === '' && JOINERS.has(segment) && !CJK.test(word)) {
      pendingJoiner = segment;
    } else {
      flush();
    }
  }
  flush();
  return tokens;
}

function isKept(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && !STOP_WORDS.has(token) && HAS_LETTER_OR_DIGIT.test(token);
}
