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

// A CJK character costs what a symbol does; the two kinds differ only in name.
const SPACE = 0;
const WORD = 1;
const SYMBOL = 2;
type CharKind = typeof SPACE | typeof WORD | typeof SYMBOL;

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
  return tokensOfTally(tallyTokens(text));
}

/**
 * countTokens in a form that concatenation combines exactly (joinTallies): the word runs at the
 * two ends are kept as lengths, since a neighbour may continue them. Lets the chunker count each
 * piece of a document once and know the exact count of any run of pieces without a rescan.
 */
export interface TokenTally {
  /** Tenths of everything between the leading and the trailing word run. */
  inner: number;
  /** UTF-16 units of the word run the text starts with; the whole text when `whole`. */
  lead: number;
  trail: number;
  /** No character of the text ends a word run (an empty text too). */
  whole: boolean;
}

export function tallyTokens(text: string): TokenTally {
  let inner = 0;
  let run = 0;
  let lead = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let kind: number;
    let units = 1;
    if (code < 0x80) {
      // A table lookup: nearly every character of most documents takes this branch.
      kind = ASCII_KINDS[code]!;
    } else {
      // A pair only when the low half follows: a lone high half must not swallow the next
      // character, or a text cut after it would count differently from the whole.
      if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) units = 2;
      kind = commonCjkKind(code) ?? otherKind(text.slice(i, i + units));
      i += units - 1;
    }
    if (kind === WORD) {
      run += units;
      continue;
    }
    if (lead < 0) lead = run;
    else inner += wordTenths(run);
    run = 0;
    if (kind !== SPACE) inner += SYMBOL_TENTHS;
  }
  return lead < 0 ? { inner: 0, lead: run, trail: run, whole: true } : { inner, lead, trail: run, whole: false };
}

export function tokensOfTally({ inner, lead, trail, whole }: TokenTally): number {
  return ceil((whole ? wordTenths(lead) : inner + wordTenths(lead) + wordTenths(trail)) / 10);
}

/** The tally of `first + second`: the word run where they meet is counted once, as one word. */
export function joinTallies(first: TokenTally, second: TokenTally): TokenTally {
  if (first.whole && second.whole)
    return { inner: 0, lead: first.lead + second.lead, trail: first.lead + second.lead, whole: true };
  if (first.whole) return { inner: second.inner, lead: first.lead + second.lead, trail: second.trail, whole: false };
  if (second.whole) return { inner: first.inner, lead: first.lead, trail: first.trail + second.lead, whole: false };
  return {
    inner: first.inner + second.inner + wordTenths(first.trail + second.lead),
    lead: first.lead,
    trail: second.trail,
    whole: false,
  };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function wordTenths(length: number): number {
  return length === 0 ? 0 : max(WORD_TENTHS, ceil((length * 10) / CHARS_PER_TOKEN));
}

function asciiKind(code: number): CharKind {
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return SPACE;
  const isAlphanumeric =
    (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
  return isAlphanumeric ? WORD : SYMBOL;
}

const ASCII_KINDS = Uint8Array.from({ length: 0x80 }, (_, code) => asciiKind(code));

/**
 * Fast path for the blocks that make up nearly all CJK text: unified ideographs, kana, Hangul
 * syllables and CJK punctuation. The few Common-script marks inside them (ー, ・) are counted as
 * CJK characters too, which is how they behave in running text.
 */
function commonCjkKind(code: number): CharKind | null {
  if ((code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3040 && code <= 0x30ff) || (code >= 0xac00 && code <= 0xd7af)) {
    return SYMBOL;
  }
  if (code > 0x3000 && code <= 0x303f) return SYMBOL;
  return null;
}

function otherKind(char: string): CharKind {
  if (CJK.test(char)) return SYMBOL;
  if (WORD_CHAR.test(char)) return WORD;
  return WHITESPACE.test(char) ? SPACE : SYMBOL;
}
