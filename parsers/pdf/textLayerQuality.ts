/**
 * How trustworthy a page's text layer is. A font whose ToUnicode map is missing or broken makes
 * pdf.js report glyph codes as characters: runs of private-use or control characters, U+FFFD,
 * or (with subset fonts that number glyphs in order) letters of the right script in a nonsense
 * order, words with no vowel. One pass over the text, constant work per character.
 */
export interface TextLayerQuality {
  /** Visible (non-space) characters. */
  chars: number;
  /** Of those, characters no real text is made of: U+FFFD, private use, C0/C1 controls. */
  junk: number;
  /** Latin words of three letters or more. */
  latinWords: number;
  /** Of those, words without a vowel (a, e, i, o, u, y, accented or not). */
  vowellessWords: number;
}

/** Above this share of junk characters, the text layer is mojibake. */
export const MAX_JUNK_SHARE = 0.1;
/**
 * Above this share of vowel-less words, the Latin text is glyph codes, not words. English prose
 * has ~2 % (acronyms, "rm", "pkg"); a shifted code page has most words vowel-less.
 */
export const MAX_VOWELLESS_SHARE = 0.45;
/** Fewer Latin words than this say nothing about the page's language. */
const MIN_WORDS_JUDGED = 20;

const VOWELS = /[aeiouyàáâãäåæèéêëìíîïòóôõöøùúûüýÿœ]/i;
const LATIN_LETTER = /[a-z\u00c0-\u024f]/i;

export function textLayerQuality(text: string): TextLayerQuality {
  let chars = 0;
  let junk = 0;
  let latinWords = 0;
  let vowellessWords = 0;
  let wordLength = 0;
  let wordHasVowel = false;
  const endWord = (): void => {
    if (wordLength >= 3) {
      latinWords++;
      if (!wordHasVowel) vowellessWords++;
    }
    wordLength = 0;
    wordHasVowel = false;
  };
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (LATIN_LETTER.test(char)) {
      wordLength++;
      if (VOWELS.test(char)) wordHasVowel = true;
    } else endWord();
    if (/\s/.test(char)) continue;
    chars++;
    if (isJunk(code)) junk++;
  }
  endWord();
  return { chars, junk, latinWords, vowellessWords };
}

/** A text layer that reads as mojibake rather than as text. */
export function isGarbled(quality: TextLayerQuality): boolean {
  if (quality.chars === 0) return false;
  if (quality.junk > quality.chars * MAX_JUNK_SHARE) return true;
  return quality.latinWords >= MIN_WORDS_JUDGED && quality.vowellessWords > quality.latinWords * MAX_VOWELLESS_SHARE;
}

function isJunk(code: number): boolean {
  return (
    code === 0xfffd ||
    (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0xe000 && code <= 0xf8ff) ||
    code >= 0xf0000
  );
}
