import { countTokens, joinTallies, tallyTokens, tokensOfTally, type TokenTally } from '../tokenizer/countTokens';
import { splitBlocks } from './blocks';
import { childCharCap, cutByChars } from './charCap';
import { HARD_CUT_CHARS_PER_TOKEN, hardCut, isSpace } from './hardCut';
import type { Piece } from './piece';
import { splitCode, splitTable } from './splitBlock';

/** A child's text and its exact token count, joined from its pieces' tallies rather than recounted. */
export interface CountedText {
  text: string;
  tally: TokenTally;
}

const EMPTY_TALLY: TokenTally = tallyTokens('');

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

/** Share of a child's balanced size that packing may exceed it by, to absorb uneven pieces. */
const BALANCE_SLACK = 0.1;

/**
 * Splits a section body into child texts of at most maxTokens, each starting with about
 * overlapTokens of the previous child's end so a fact that straddles a boundary stays findable.
 * Children are balanced: a body of 1.1 children's worth gives two halves, not a full child and a
 * scrap. Tables and code blocks stay whole when they fit; larger ones get children of their own,
 * cut between rows or lines. No child passes the character cap (charCap.ts), whitespace included.
 * Returns each child with its tally, and the tally of the whole body.
 */
export function splitText(
  body: string,
  maxTokens: number,
  overlapTokens: number,
): { children: CountedText[]; bodyTally: TokenTally } {
  const budget = maxTokens - overlapTokens;
  const children: CountedText[] = [];
  let bodyTally = EMPTY_TALLY;
  let pieces: Piece[] = [];
  // Loops rather than push(...): a 150,000-line paragraph is 150,000 pieces, past the stack.
  for (const block of splitBlocks(body)) {
    if (block.kind === 'text') {
      for (const piece of atomizeCounting(block.text, budget, 0)) {
        pieces.push(piece);
        bodyTally = joinTallies(bodyTally, piece.tally);
      }
      continue;
    }
    const tally = tallyTokens(block.text);
    bodyTally = joinTallies(bodyTally, tally);
    const tokens = tokensOfTally(tally);
    // Pieces leave room for the overlap, so an overlap plus any one piece always fits.
    if (tokens <= budget) {
      pieces.push({ text: block.text, tokens, tally });
      continue;
    }
    for (const child of pack(pieces, maxTokens, overlapTokens)) children.push(child);
    pieces = [];
    const parts =
      block.kind === 'table'
        ? splitTable(block.text, maxTokens, splitLong)
        : splitCode(block.text, maxTokens, splitLong);
    for (const part of parts) if (part.trim() !== '') children.push({ text: part, tally: tallyTokens(part) });
  }
  for (const child of pack(pieces, maxTokens, overlapTokens)) children.push(child);
  return { children: withinCharCap(children, childCharCap(maxTokens)), bodyTally };
}

/** Children past the character cap (charCap.ts) cut by characters; the rest as they are. */
function withinCharCap(children: CountedText[], cap: number): CountedText[] {
  if (children.every((child) => child.text.length <= cap)) return children;
  const capped: CountedText[] = [];
  for (const child of children) {
    if (child.text.length <= cap) capped.push(child);
    else for (const part of cutByChars(child.text, cap)) capped.push({ text: part, tally: tallyTokens(part) });
  }
  return capped;
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
  for (const piece of atomizeCounting(text, limit, 0)) {
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

/**
 * Packs pieces into children. The limits use the pieces' summed counts (as before tallies existed,
 * so the cuts stay where they were); each child's exact count is its pieces' tallies joined, which
 * trimming does not change (what trim() removes costs nothing).
 */
function pack(pieces: Piece[], maxTokens: number, overlapTokens: number): CountedText[] {
  const total = pieces.reduce((sum, piece) => sum + piece.tokens, 0);
  const count = total <= maxTokens ? 1 : Math.ceil((total - overlapTokens) / (maxTokens - overlapTokens));
  const share = Math.ceil(total / count);
  const slack = Math.ceil(share * BALANCE_SLACK);
  const children: CountedText[] = [];
  let raw = '';
  let rawTally = EMPTY_TALLY;
  let rawTokens = 0;
  let hasNewContent = false;

  for (const piece of pieces) {
    const limit = Math.min(maxTokens, share + slack + (children.length > 0 ? overlapTokens : 0));
    if (hasNewContent && rawTokens + piece.tokens > limit) {
      children.push({ text: raw.trim(), tally: rawTally });
      raw = tailWithin(raw, overlapTokens);
      rawTally = tallyTokens(raw);
      rawTokens = tokensOfTally(rawTally);
      hasNewContent = false;
    }
    raw += piece.text;
    rawTally = joinTallies(rawTally, piece.tally);
    // Summing is an upper bound of countTokens(raw): the estimate is subadditive.
    rawTokens += piece.tokens;
    hasNewContent ||= piece.text.trim() !== '';
  }
  if (hasNewContent) children.push({ text: raw.trim(), tally: rawTally });
  return children;
}

/**
 * Breaks text into pieces of at most `budget` tokens, using the coarsest separator that helps.
 * The text is cut at this level's separator before it is counted: its parts' tallies give its own
 * count, so each character is counted once per level it descends, not once more for the whole.
 */
function atomizeCounting(text: string, budget: number, level: number): Piece[] {
  const separator = SEPARATORS[level];
  if (!separator) return atomize(text, budget, level, tallyTokens(text));
  const parts = splitAfter(text, separator);
  const tallies = parts.map(tallyTokens);
  const tally = tallies.reduce(joinTallies);
  const tokens = tokensOfTally(tally);
  if (tokens <= budget) return [{ text, tokens, tally }];
  if (parts.length === 1) return atomizeCounting(text, budget, level + 1);
  const pieces: Piece[] = [];
  for (const [i, part] of parts.entries())
    for (const piece of atomize(part, budget, level + 1, tallies[i]!)) pieces.push(piece);
  return pieces;
}

function atomize(text: string, budget: number, level: number, tally: TokenTally): Piece[] {
  const tokens = tokensOfTally(tally);
  if (tokens <= budget) return [{ text, tokens, tally }];
  if (!SEPARATORS[level]) return hardCut(text, budget);
  return atomizeCounting(text, budget, level);
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
