import { tokenize } from '../tokenizer/tokenize';

/** At most this many highlighted spans per hit: enough to mark a passage, bounded whatever the text. */
export const MAX_HIGHLIGHTS = 64;

/** A matched term in a hit's text: [start, end) in UTF-16 code units of the text as returned. */
export interface Highlight {
  start: number;
  end: number;
}

const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;

const escape = (term: string): string => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The query's terms (the tokenizer that built the keyword index and the sparse vectors) as one
 * case-insensitive pattern: a term of letters or digits only where it stands as a word (so
 * "port" does not mark "support"), a CJK term wherever it occurs (CJK writes no spaces). Null
 * when the query has no term.
 */
export function highlightPattern(query: string): RegExp | null {
  const terms = [...new Set(tokenize(query))].sort((a, b) => b.length - a.length).slice(0, 32);
  if (terms.length === 0) return null;
  const alternatives = terms.map((t) =>
    CJK.test(t) ? escape(t) : `(?<![\\p{L}\\p{N}_])${escape(t)}(?![\\p{L}\\p{N}_])`,
  );
  return new RegExp(alternatives.join('|'), 'giu');
}

/**
 * Where the pattern matches the text, overlapping and touching spans merged, in order. One pass of
 * a pattern of literal terms: linear in the text for a bounded query.
 */
export function highlightsOf(text: string, pattern: RegExp | null): Highlight[] {
  if (!pattern) return [];
  const spans: Highlight[] = [];
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    const last = spans[spans.length - 1];
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else if (spans.length === MAX_HIGHLIGHTS) break;
    else spans.push({ start, end });
  }
  return spans;
}
