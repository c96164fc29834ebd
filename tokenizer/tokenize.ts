import { chineseWords } from './chineseWords';
import { capMarkRuns } from './markRuns';
import { STOP_WORDS } from './stopWords';

/**
 * One segmenter for the process: construction loads ICU break data. It handles every script but
 * Chinese well (Latin, Cyrillic, Japanese kana, Korean, Thai...); consecutive Han segments are
 * gathered into a run and re-segmented by jieba (chineseWords).
 */
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Joiners inside identifiers such as `pg_stat_activity`, `FORM-2024-001` or `node.js`. */
const JOINERS = new Set(['_', '-', '.']);

/** CJK words never merge through joiners: "文档-切分" is two words, not one identifier. */
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;

const ALL_HAN = /^\p{sc=Han}+$/u;

/**
 * V8's segment iterator gets slower the longer its input (quadratic overall: a 200 KB string
 * takes tens of seconds), so text is fed to it in windows of about this many characters.
 */
const SEGMENT_WINDOW = 1024;

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
  const normalized = capMarkRuns(text)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\u2019/g, "'");
  const tokens: string[] = [];
  let word = '';
  // Only a word's first segment can be CJK (later ones join only when they are not): a flag,
  // because testing the growing word at every joiner rescanned it (quadratic in its length).
  let wordIsCjk = false;
  let pendingJoiner = '';
  let hanRun = '';

  const flushHan = (): void => {
    if (hanRun !== '') for (const han of chineseWords(hanRun)) if (isKept(han)) tokens.push(han);
    hanRun = '';
  };
  const flush = (): void => {
    if (word !== '' && isKept(word)) tokens.push(word);
    word = '';
    pendingJoiner = '';
  };

  for (const window of segmentWindows(normalized)) {
    for (const { segment, isWordLike } of segmenter.segment(window)) {
      if (isWordLike && ALL_HAN.test(segment)) {
        flush();
        hanRun += segment;
        continue;
      }
      flushHan();
      if (isWordLike) {
        if (pendingJoiner !== '' && !CJK.test(segment)) {
          // An overlong word is dropped anyway: growing it further only costs memory.
          if (word.length <= MAX_TOKEN_LENGTH) word += pendingJoiner + segment;
          pendingJoiner = '';
        } else {
          flush();
          word = segment;
          wordIsCjk = CJK.test(segment);
        }
      } else if (word !== '' && pendingJoiner === '' && JOINERS.has(segment) && !wordIsCjk) {
        pendingJoiner = segment;
      } else {
        flush();
      }
    }
  }
  flush();
  flushHan();
  return tokens;
}

/**
 * Cuts after whitespace (always a word boundary) or else after punctuation (an identifier joiner
 * left pending carries over to the next window), so windows rarely change the result; only a run
 * of over half a window with neither is cut blindly.
 */
function* segmentWindows(text: string): Generator<string> {
  let start = 0;
  while (text.length - start > SEGMENT_WINDOW) {
    const limit = start + SEGMENT_WINDOW;
    let cut = lastIndexMatching(text, start + SEGMENT_WINDOW / 2, limit, isWhitespace);
    if (cut < 0) cut = lastIndexMatching(text, start + SEGMENT_WINDOW / 2, limit, isPunctuation);
    if (cut < 0) cut = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 2 : limit - 1;
    yield text.slice(start, cut + 1);
    start = cut + 1;
  }
  yield text.slice(start);
}

function lastIndexMatching(text: string, from: number, to: number, test: (char: string) => boolean): number {
  for (let i = to - 1; i >= from; i--) if (test(text.charAt(i))) return i;
  return -1;
}

const isWhitespace = (char: string): boolean => /\s/.test(char);
const isPunctuation = (char: string): boolean => /[\p{P}]/u.test(char);
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

function isKept(token: string): boolean {
  return token.length <= MAX_TOKEN_LENGTH && !STOP_WORDS.has(token) && HAS_LETTER_OR_DIGIT.test(token);
}
