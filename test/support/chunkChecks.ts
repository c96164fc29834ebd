import type { ChunkDraft } from '../../contracts/chunk';
import { countTokens } from '../../tokenizer/countTokens';

/** What every chunking of hostile text must still guarantee, checked in one pass. */

export const childrenOf = (chunks: ChunkDraft[]): ChunkDraft[] => chunks.filter((chunk) => chunk.kind === 'child');
export const parentsOf = (chunks: ChunkDraft[]): ChunkDraft[] => chunks.filter((chunk) => chunk.kind === 'parent');

/**
 * A child's text without the section-path line that leads it (chunker/sectionContext.ts): the
 * part cut from its section. The line holds no line break, and a child has one when its path
 * names anything.
 */
export function childBody(child: ChunkDraft): string {
  return child.sectionPath.some((title) => title !== '')
    ? child.text.slice(child.text.indexOf('\n\n') + 2)
    : child.text;
}

/** Indexes of the children over `maxTokens`, by their recorded count or by a fresh one. */
export function overBudget(chunks: ChunkDraft[], maxTokens: number): number[] {
  return childrenOf(chunks)
    .filter((child) => child.tokenCount > maxTokens || countTokens(child.text) > maxTokens)
    .map((child) => child.chunkIndex);
}

/**
 * Where `texts`, cut from `source` in order (each overlapping or following the one before, trimmed),
 * first leave something other than whitespace out; null when they cover all of it. Each text is
 * placed as far on as it can start, so on repetitive input this can only over-credit coverage.
 */
export function uncoveredAt(source: string, texts: string[], from = 0): number | null {
  let covered = from;
  for (const text of texts) {
    let next = covered;
    while (next < source.length && /\s/.test(source.charAt(next))) next++;
    const start = source.lastIndexOf(text, next);
    if (text === '' || start < 0) return covered;
    covered = Math.max(covered, start + text.length);
  }
  return source.slice(covered).trim() === '' ? null : covered;
}

/**
 * For each parent, where its children fail to cover its text (null when they do). The heading
 * that starts a parent is not in its children, so coverage starts where the first child does,
 * and only one line (the heading) may come before it.
 */
export function sectionsUncovered(chunks: ChunkDraft[]): (number | null)[] {
  return parentsOf(chunks).map((parent) => {
    const range = parent.childRange;
    if (!range) return 0;
    const texts = chunks.slice(range.first, range.last + 1).map(childBody);
    const start = parent.text.indexOf(texts[0] ?? '');
    if (start < 0 || parent.text.slice(0, start).trim().includes('\n')) return 0;
    return uncoveredAt(parent.text, texts, start);
  });
}

/** Twice the ideal number of children (each one full) for `tokens` of text: more means scraps. */
export function saneChildCount(tokens: number, maxTokens: number, overlapTokens: number): number {
  return Math.ceil((2 * tokens) / (maxTokens - overlapTokens)) + 1;
}
