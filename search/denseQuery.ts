import { tokenize } from '../tokenizer/tokenize';

/**
 * The text embedded for a search query: its terms without function words or punctuation
 * ("How do I flatten a matrix?" → "flatten matrix"). A sentence encoder matches a question's
 * framing ("how do I", "什么", "?") against passages phrased the same way; the bare terms match
 * the passage that answers. Measured on the labelled set (eval/retrieval, real embedder): dense
 * recall@5 0.683 → 0.714 in English, fused 0.651 → 0.698 (en) and 0.80 → 0.88 (zh) with the same
 * fusion settings, better on both halves of the questions. A query of function words alone stays
 * as typed: an empty text would embed to nothing useful.
 */
export function denseQueryText(query: string, terms: readonly string[] = tokenize(query)): string {
  return terms.length === 0 ? query : terms.join(' ');
}
