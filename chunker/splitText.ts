import { countTokens } from '../tokenizer/countTokens';
import { splitBlocks } from './blocks';
import { splitCode, splitTable } from './splitBlock';

interface Piece {
  /** Verbatim text including its trailing separator, so concatenated pieces rebuild the input. */
  text: string;
  tokens: number;
}

/**
 * Separators from coarsest to finest. Each match ends a piece: blank lines end paragraphs, line
 * breaks end list items and code lines, terminal punctuation ends sentences (an English one
 * needs following whitespace so that `v1.2.3` or `3.14` stay whole; Chinese ones do not, as
 * Chinese puts no space after them). Every pattern scans each character a bounded number of
 * times: a run that cannot end a sentence is tried from its first stop only (the look-behind),
 * where trying it from every stop rescanned the rest of the run (60,000 dots took 18 s).
 */
const SEPARATORS: readonly RegExp[] = [
  /\n[ \t]*\n\s*/g,
  /\n\s*/g,
  /(?<![.!?])[.!?]+["'”’)\]]*\s+|[。！？；]+[”’」』）]*\s*/g,
  // Clauses, before a blind cut: a sentence longer than a child (legal text, a run-on line).
  /[,;:]\s+|[，、：]\s*/g,
];

/**
 * A hard cut first tries a window this many characters per token wide (generous: Latin prose runs
 * about 4–5 characters per token, whitespace included), then narrows it until it fits.
 */
const HARD_CUT_CHARS_PER_TOKEN = 6;

/** Share of a child's balanced size that packing may exceed it by, to absorb uneven pieces. */
const BALANCE_SLACK = 0.1;

/**
 * Splits a section body into child texts of at most maxTokens, each starting with about
 * overlapTokens of the previous child's end so a fact that straddles a boundary stays findable.
 * Children are balanced: a body of 1.1 children's worth gives two halves, not a full child and a
 * scrap. Tables and code blocks stay whole when they fit; larger ones get children of their own,
 * cut between rows or lines.
 */
export function splitText(body: string, maxTokens: number, overlapTokens: number): string[] {
  const budget = maxTokens - overlapTokens;
  const children: string[] = [];
  let pieces: Piece[] = [];
  // Loops rather than push(...): a 150,000-line paragraph is 150,000 pieces, past the stack.
  for (const block of splitBlocks(body)) {
    const tokens = countTokens(block.text);
    if (block.kind === 'text') {
      for (const piece of atomize(block.text, budget, 0, tokens)) pieces.push(piece);
      continue;
    }
    // Pieces leave room for the overlap, so an overlap plus any one piece always fits.
    if (tokens <= budget) {
      pieces.push({ text: block.text, tokens });
      continue;
    }
    for (const child of pack(pieces, maxTokens, overlapTokens)) children.push(child);
    pieces = [];
    const parts = block.kind === 'table' ? splitTable(block.text, maxTokens, splitLong) : splitCode(block.text, maxTokens, splitLong);
    for (const part of parts) if (part.trim() !== '') children.push(part);
  }
  for (const child of pack(pieces, maxTokens, overlapTokens)) children.push(child);
  return children;
}

/**
 * A table row or code line too long for one child: cut at its coarsest separators and packed
 * back up to `limit`, so a cell of 200,000 sentences gives full parts, not one part per sentence.
 */
function splitLong(text: string, limit: number): string[] {
  const parts: string[] = [];
  let part = '';
  let tokens = 0;
  let hasContent = false;
  for (const piece of atomize(text, limit, 0)) {
    if (hasContent && tokens + piece.tokens > limit) {
      parts.push(part.trim());
      [part, tokens, hasContent] = ['', 0, false];
    }
    part += piece.text;
    // Summing is an upper bound of countTokens(part): the estimate is subadditive.
    tokens += piece.tokens;
    hasContent ||= piece.text.trim() !== '';
  }
  if (hasContent) parts.push(part.trim());
  return parts;
}

function pack(pieces: Piece[], maxTokens: number, overlapTokens: number): string[] {
  const total = pieces.reduce((sum, piece) => sum + piece.tokens, 0);
  const count = total <= maxTokens ? 1 : Math.ceil((total - overlapTokens) / (maxTokens - overlapTokens));
  const share = Math.ceil(total / count);
  const slack = Math.ceil(share * BALANCE_SLACK);
  const children: string[] = [];
  let raw = '';
  let rawTokens = 0;
  let hasNewContent = false;

  for (const piece of pieces) {
    const limit = Math.min(maxTokens, share + slack + (children.length > 0 ? overlapTokens : 0));
    if (hasNewContent && rawTokens + piece.tokens > limit) {
      children.push(raw.trim());
      raw = tailWithin(raw, overlapTokens);
      rawTokens = countTokens(raw);
      hasNewContent = false;
    }
    raw += piece.text;
    // Summing is an upper bound of countTokens(raw): the estimate is subadditive.
    rawTokens += piece.tokens;
    hasNewContent ||= piece.text.trim() !== '';
  }
  if (hasNewContent) children.push(raw.trim());
  return children;
}

/** Breaks text into pieces of at most `budget` tokens, using the coarsest separator that helps. */
function atomize(text: string, budget: number, level: number, tokens = countTokens(text)): Piece[] {
  if (tokens <= budget) return [{ text, tokens }];
  const separator = SEPARATORS[level];
  if (!separator) return hardCut(text, budget);
  const parts = splitAfter(text, separator);
  if (parts.length === 1) return atomize(text, budget, level + 1, tokens);
  return parts.flatMap((part) => atomize(part, budget, level + 1));
}

function splitAfter(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const match of text.matchAll(separator)) {
    const end = match.index + match[0].length;
    if (end >= text.length) break;
    parts.push(text.slice(start, end));
    start = end;
  }
  parts.push(text.slice(start));
  return parts;
}

/** Last resort for text with no usable separator (a minified line, a 2 MB base64 blob). */
function hardCut(text: string, budget: number): Piece[] {
  const pieces: Piece[] = [];
  let start = 0;
  while (start < text.length) {
    const { end, tokens } = longestFittingPrefix(text, start, budget);
    pieces.push({ text: text.slice(start, end), tokens });
    start = end;
  }
  return pieces;
}

function longestFittingPrefix(text: string, start: number, budget: number): { end: number; tokens: number } {
  let length = Math.min(text.length - start, budget * HARD_CUT_CHARS_PER_TOKEN);
  for (;;) {
    const end = preferWordBoundary(text, start, safeEnd(text, start, start + length));
    const tokens = countTokens(text.slice(start, end));
    if (tokens <= budget) return { end, tokens };
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

/** The end of a child worth about `overlapTokens`, starting at a word boundary when there is one. */
function tailWithin(text: string, overlapTokens: number): string {
  if (overlapTokens === 0) return '';
  let length = Math.min(text.length, overlapTokens * HARD_CUT_CHARS_PER_TOKEN);
  let tail = text.slice(text.length - length);
  let tokens = countTokens(tail);
  while (tokens > overlapTokens && length > 0) {
    length = Math.min(length - 1, Math.floor((length * overlapTokens) / tokens));
    tail = text.slice(text.length - length);
    tokens = countTokens(tail);
  }
  if (isLowSurrogate(tail.charCodeAt(0))) tail = tail.slice(1);
  const cutsWord = tail.length < text.length && !isSpace(text.charCodeAt(text.length - tail.length - 1));
  const wordStart = cutsWord ? tail.search(/\s\S/) : -1;
  return wordStart >= 0 && wordStart < tail.length / 2 ? tail.slice(wordStart + 1) : tail;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0x3000;
}
