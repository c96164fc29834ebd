import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict';

let jieba: Jieba | undefined;

/**
 * jieba gets a run in pieces of at most this many characters. One call over a run of millions
 * (Chinese with no punctuation for megabytes: a hostile file) builds the word graph of all of it
 * at once, and its time grew unevenly (1 → 2 million characters: ×3); in pieces it grows
 * linearly. A cut may split the one word across it; real Chinese ends runs with punctuation
 * long before a piece is full.
 */
const MAX_PIECE = 4096;

/**
 * Chinese word segmentation with jieba (a native binding of the Rust port, with its bundled
 * dictionary). ICU's word break, as V8 ships it, cuts Chinese into single characters (文档 →
 * 文, 档), which makes keyword search match any text sharing a character. Search mode also emits
 * the dictionary words inside a long compound (数据库管理系统 → 数据库, 管理, 系统...), so a query
 * for a part of a compound finds it; queries are cut the same way, so both sides meet.
 * The dictionary (≈0.3 s, ≈50 MB) is loaded on the first Chinese text, once per process.
 */
export function chineseWords(run: string): string[] {
  jieba ??= Jieba.withDict(dict);
  if (run.length <= MAX_PIECE) return jieba.cutForSearch(run, true);
  const words: string[] = [];
  for (let start = 0; start < run.length;) {
    let end = Math.min(start + MAX_PIECE, run.length);
    // Han extensions B and later are surrogate pairs: never cut one in half.
    if (end < run.length && isHighSurrogate(run.charCodeAt(end - 1))) end--;
    for (const word of jieba.cutForSearch(run.slice(start, end), true)) words.push(word);
    start = end;
  }
  return words;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
