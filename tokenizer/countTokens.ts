// Costs are summed in tenths of a token: integer arithmetic keeps 10 × 1.3 at exactly 13.
const WORD_TENTHS = 13;
const CHARS_PER_TOKEN = 4;
const SYMBOL_TENTHS = 10;

const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;
const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;
const WHITESPACE = /\s/u;

// Bound once: each lookup of the global Math costs about a microsecond inside a vm context such
// as Jest's (nodejs/node#49283), forty times the whole call, and this runs once per word.
const { ceil, max } = Math;

type CharKind = 'space' | 'word' | 'cjk' | 'symbol';

/**
 * Estimates how many tokens an embedding model will see, without shipping a model-specific BPE
 * vocabulary: the chunker only needs a budget that stays under the model's input limit whatever
 * the model, and it calls this on every piece it considers, so it must be a single cheap pass.
 *
 * Ratios (from cl100k-style BPE tokenizers on typical prose and code):
 * - a Latin/Cyrillic/digit word costs 1.3 tokens on average (frequent words are one token, rarer
 *   ones split into pieces), and at least one token per 4 characters, so a long run of letters
 *   (an identifier, a base64 blob, a 2 MB line) is counted as the many tokens it really is;
 * - each CJK character (Han, kana, Hangul syllable) is about one token;
 * - each other visible character (punctuation, symbols, emoji) is one token;
 * - whitespace is free.
 * Over-estimating is the safe side: chunks just come out a little smaller.
 *
 * The estimate is subadditive (the count of a concatenation never exceeds the sum of the parts'
 * counts), which the chunker relies on to pack pieces without recounting. It is a hand-written
 * scan rather than one big regex because the chunker runs it over every character of a document
 * several times, and the regex (with its CJK look-ahead) was four times slower.
 */
export function countTokens(text: string): number {
  let tenths = 0;
  let wordLength = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isPair = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length;
    const kind = code < 0x80 ? asciiKind(code) : (commonCjkKind(code) ?? otherKind(text.slice(i, isPair ? i + 2 : i + 1)));
    if (kind === 'word') {
      wordLength += isPair ? 2 : 1;
    } else {
      tenths += wordTenths(wordLength);
      wordLength = 0;
      if (kind !== 'space') tenths += SYMBOL_TENTHS;
    }
    if (isPair) i++;
  }
  tenths += wordTenths(wordLength);
  return ceil(tenths / 10);
}

function wordTenths(length: number): number {
  return length === 0 ? 0 : max(WORD_TENTHS, ceil((length * 10) / CHARS_PER_TOKEN));
}

function asciiKind(code: number): CharKind {
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return 'space';
  const isAlphanumeric =
    (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
  return isAlphanumeric ? 'word' : 'symbol';
}

/**
 * Fast path for the blocks that make up nearly all CJK text: unified ideographs, kana, Hangul
 * syllables and CJK punctuation. The few Common-script marks inside them (ー, ・) are counted as
 * CJK characters too, which is how they behave in running text.
 */
function commonCjkKind(code: number): CharKind | null {
  if ((code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3040 && code <= 0x30ff) || (code >= 0xac00 && code <= 0xd7af)) {
    return 'cjk';
  }
  if (code > 0x3000 && code <= 0x303f) return 'symbol';
  return null;
}

function otherKind(char: string): CharKind {
  if (CJK.test(char)) return 'cjk';
  if (WORD_CHAR.test(char)) return 'word';
  return WHITESPACE.test(char) ? 'space' : 'symbol';
}
