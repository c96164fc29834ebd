import { isSpace } from './hardCut';

/**
 * Characters a child of `maxTokens` tokens may hold. Tokens bound what a model reads, not what a
 * store keeps and a search returns: whitespace costs no tokens, so "alpha", 20 million spaces and
 * "beta" was one 20 MB child. Prose runs 4–6 characters a token and padded tables rarely pass 10,
 * so 16 a token never cuts real text, and past it a hard cut by characters applies.
 */
export const CHILD_CHARS_PER_TOKEN = 16;

export function childCharCap(maxTokens: number): number {
  return Math.max(1, maxTokens) * CHILD_CHARS_PER_TOKEN;
}

/**
 * `text` cut into trimmed parts of at most `cap` characters, each cut after whitespace in the
 * last half of its window when there is some; parts that are only whitespace are dropped. One
 * pass: each character is looked at at most twice.
 */
export function cutByChars(text: string, cap: number): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + cap);
    if (end < text.length) end = afterLastSpace(text, start, end);
    // Never half an emoji: a high surrogate at the end moves to the next part.
    if (end < text.length && end - 1 > start && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    const part = text.slice(start, end).trim();
    if (part !== '') parts.push(part);
    start = end;
  }
  return parts;
}

function afterLastSpace(text: string, start: number, end: number): number {
  for (let i = end - 1; i > start + (end - start) / 2; i--) {
    if (isSpace(text.charCodeAt(i))) return i + 1;
  }
  return end;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
