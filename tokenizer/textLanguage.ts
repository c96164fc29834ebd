import type { TextLanguage } from '../contracts/localModel';

/** Enough of a chunk or query to tell its language: a prefix, so the time is bounded whatever its size. */
const SAMPLE_CHARS = 4096;
/**
 * A Han character carries about as much as a Latin word of ~4 letters: a text is Chinese when its
 * Han characters outweigh its Latin letters at that rate. An English passage quoting a Chinese term
 * stays English; a Chinese passage naming commands and options in Latin letters stays Chinese.
 */
const LATIN_LETTERS_PER_HAN = 4;

/** A Han (Chinese) character's code unit: the unified ideographs, extension A and the compatibility block. */
export function isHan(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) || // CJK Unified Ideographs
    (code >= 0x3400 && code <= 0x4dbf) || // Extension A
    (code >= 0xf900 && code <= 0xfaff) // Compatibility Ideographs
  );
}

function isLatinLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0xc0 && code <= 0x24f);
}

/**
 * Which language's model embeds a text for the second dense vector: `zh` or `en` (every other
 * text, a text without letters included, goes to the English model). One pass over a prefix.
 */
export function textLanguage(text: string): TextLanguage {
  let han = 0;
  let latin = 0;
  const end = Math.min(text.length, SAMPLE_CHARS);
  for (let i = 0; i < end; i += 1) {
    const code = text.charCodeAt(i);
    if (isHan(code)) han += 1;
    else if (isLatinLetter(code)) latin += 1;
  }
  return han > 0 && han * LATIN_LETTERS_PER_HAN >= latin ? 'zh' : 'en';
}
