import { isHan } from '../tokenizer/textLanguage';

/**
 * Passage windows: a child cut into a few overlapping runs of whole sentences, each embedded on its
 * own beside the child's own vector (the second dense vector, VECTORIZING), so that search can match
 * a question against the one or two sentences that answer it instead of a vector of the whole child,
 * where those sentences are a small share (docs/search.md, "Passage windows"). Measured on the retrieval
 * eval's held-out families, a window list fused beside the child list raised recall@5 more than any
 * lever since the second dense vector itself.
 *
 * Each window starts with the child's first line (its section path, where the child has one), then
 * sentences up to WINDOW_SIZE words; consecutive windows share one sentence, so a fact stated across
 * a sentence boundary is whole in one of them. One pass over the text: linear in its length.
 */

/** Words (Latin runs) or Han characters / 2 a window holds: about two sentences of a manual. */
export const WINDOW_SIZE = 40;
/**
 * The most windows a child gets: a longer child gets proportionally larger windows, so its every
 * sentence stays in one, and the vectors per child (what VECTORIZING and the store pay) stay bounded.
 */
export const MAX_WINDOWS = 12;
/** A first line longer than this is prose, not a path: it is the start of the body, not every window's prefix. */
const MAX_CONTEXT_SIZE = 40;

function isWordChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code >= 0xc0
  );
}

/** A text's size in words: each run of letters or digits counts one, each Han character a half. */
export function windowSize(text: string): number {
  let size = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isHan(code)) {
      size += 0.5;
      inWord = false;
    } else if (isWordChar(code)) {
      if (!inWord) size += 1;
      inWord = true;
    } else inWord = false;
  }
  return size;
}

const FULL_STOPS = new Set(['。', '！', '？', '；']);
const LATIN_STOPS = new Set(['.', '!', '?', ';']);

/** The text's sentences: its lines, each cut after a full stop (a Latin one only before a space). */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  const push = (end: number): void => {
    const sentence = text.slice(start, end).trim();
    if (sentence !== '') sentences.push(sentence);
    start = end;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\n') push(i + 1);
    else if (FULL_STOPS.has(ch)) push(i + 1);
    else if (LATIN_STOPS.has(ch) && (text[i + 1] === ' ' || text[i + 1] === '\t')) push(i + 1);
  }
  push(text.length);
  return sentences;
}

/**
 * The windows of one child's text; a child of one or two sentences is its own only window (its
 * vector would be the child's own), so it gets none: an empty list.
 */
export function passageWindows(text: string, maxWindows = MAX_WINDOWS): string[] {
  // One window is the child itself again: a child allowed fewer than two gets none.
  if (maxWindows < 2) return [];
  const newline = text.indexOf('\n');
  const firstLine = newline < 0 ? text : text.slice(0, newline);
  const hasContext = newline >= 0 && windowSize(firstLine) <= MAX_CONTEXT_SIZE;
  const context = hasContext ? `${firstLine.trim()}\n` : '';
  const sentences = sentencesOf(hasContext ? text.slice(newline + 1) : text);
  if (sentences.length <= 2) return [];
  const sizes = sentences.map(windowSize);
  const total = sizes.reduce((a, b) => a + b, 0);
  const target = Math.max(WINDOW_SIZE, Math.ceil(total / maxWindows) * 2);
  const windows: string[] = [];
  let first = 0;
  while (first < sentences.length) {
    let end = first + 1;
    let size = sizes[first] as number;
    // The last window a child may have takes every sentence left.
    const last = windows.length === maxWindows - 1;
    while (end < sentences.length && (last || size + (sizes[end] as number) <= target)) size += sizes[end++] as number;
    windows.push(context + sentences.slice(first, end).join(' '));
    if (end >= sentences.length) break;
    // The next window starts at this one's last sentence, unless that would not move it on.
    first = end - 1 > first ? end - 1 : end;
  }
  return windows.length > 1 ? windows : [];
}

/** A window's key in a store: its chunk and its place in the chunk, `<chunk id>#<n>`. */
export function windowId(chunkId: string, index: number): string {
  return `${chunkId}#${index}`;
}

/**
 * The windows each child of a document of `children` children may have, so that the document has
 * at most `maxPerDocument` (SLUICE_MAX_PASSAGE_WINDOWS_PER_DOCUMENT): a document so large that
 * fewer than two fit per child gets none, and its VECTORIZING costs what it did before windows.
 */
export function windowsPerChild(children: number, maxPerDocument: number): number {
  if (children <= 0) return MAX_WINDOWS;
  return Math.min(MAX_WINDOWS, Math.floor(maxPerDocument / children));
}
