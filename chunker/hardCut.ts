import { tallyTokens, tokensOfTally, type TokenTally } from '../tokenizer/countTokens';
import type { Piece } from './piece';

/**
 * A hard cut first tries a window this many characters per token wide (generous: Latin prose runs
 * about 4–5 characters per token, whitespace included), then narrows it until it fits.
 */
export const HARD_CUT_CHARS_PER_TOKEN = 6;

/** Last resort for text with no usable separator (a minified line, a 2 MB base64 blob). */
export function hardCut(text: string, budget: number): Piece[] {
  const pieces: Piece[] = [];
  let start = 0;
  while (start < text.length) {
    const { end, tokens, tally } = longestFittingPrefix(text, start, budget);
    pieces.push({ text: text.slice(start, end), tokens, tally });
    start = end;
  }
  return pieces;
}

function longestFittingPrefix(
  text: string,
  start: number,
  budget: number,
): { end: number; tokens: number; tally: TokenTally } {
  let length = Math.min(text.length - start, budget * HARD_CUT_CHARS_PER_TOKEN);
  for (;;) {
    const end = preferWordBoundary(text, start, safeEnd(text, start, start + length));
    const tally = tallyTokens(text.slice(start, end));
    const tokens = tokensOfTally(tally);
    if (tokens <= budget) return { end, tokens, tally };
    // Shrink in proportion to the overshoot; always by at least one character.
    length = Math.max(1, Math.min(end - start - 1, Math.floor(((end - start) * budget) / tokens)));
  }
}

/** Within the last half of a window, prefer to cut after whitespace than inside a word. */
function preferWordBoundary(text: string, start: number, end: number): number {
  if (end >= text.length) return end;
  for (let i = end - 1; i > start + (end - start) / 2; i--) {
    if (isSpace(text.charCodeAt(i))) return i + 1;
  }
  return end;
}

/** Never split a surrogate pair (half an emoji is not text); a lone pair is kept whole. */
function safeEnd(text: string, start: number, end: number): number {
  const code = text.charCodeAt(end - 1);
  if (code < 0xd800 || code > 0xdbff) return end;
  return end - 1 > start ? end - 1 : Math.min(end + 1, text.length);
}

export function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0x3000;
}
