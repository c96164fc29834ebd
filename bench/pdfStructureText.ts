/**
 * The one text normalization truth and outputs share: case folded, Unicode compatibility forms
 * unified (a PDF's "ﬁ" ligature is "fi"), and only letters and digits kept, so markdown syntax
 * (`**`, `|`, backticks, escapes) and punctuation a renderer moves or drops do not decide a match.
 */
export function normalizeWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter((word) => word !== '');
}

export function normalizeText(text: string): string {
  return normalizeWords(text).join(' ');
}

/** Counts of each value: matching "once per occurrence" is taking from these counts. */
export function multiset(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

/** How many of `wanted` `available` holds, each occurrence used at most once. */
export function multisetHits(wanted: readonly string[], available: readonly string[]): number {
  const left = multiset(available);
  let hits = 0;
  for (const value of wanted) {
    const count = left.get(value) ?? 0;
    if (count > 0) {
      hits++;
      left.set(value, count - 1);
    }
  }
  return hits;
}
