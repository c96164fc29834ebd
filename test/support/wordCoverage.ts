/**
 * Word coverage: the share of the source's word occurrences that the markdown still holds, counted
 * as multisets (a word the source has five times must be in the markdown five times), so a line
 * lost on every page shows even when its words occur elsewhere in the document.
 */
export function wordCoverage(sourceWords: readonly string[], markdown: string): { coverage: number; missing: Map<string, number> } {
  const available = countWords(words(markdown));
  const missing = new Map<string, number>();
  for (const word of sourceWords) {
    const left = available.get(word) ?? 0;
    if (left > 0) available.set(word, left - 1);
    else missing.set(word, (missing.get(word) ?? 0) + 1);
  }
  let lost = 0;
  for (const count of missing.values()) lost += count;
  return { coverage: sourceWords.length === 0 ? 1 : 1 - lost / sourceWords.length, missing };
}

export function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}

function countWords(list: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of list) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

const PAGE_NUMBER = /^(\d{1,4}|[ivxlc]{1,6})$/i;

/**
 * The words of a PDF's pages as a reader sees them: running headers and footers left out (a page's
 * first or last line whose text, digits aside, recurs on three or more pages, or a bare page
 * number), and words hyphenated across a line end joined again, as the markdown joins them.
 * `leftOut`: 1-based numbers of pages the parser drops as table of contents or index.
 */
export function pdfSourceWords(allPages: readonly (readonly string[])[], leftOut: ReadonlySet<number> = new Set()): string[] {
  const pages = allPages.filter((_lines, i) => !leftOut.has(i + 1));
  const key = (line: string): string => line.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
  const edges = (lines: readonly string[]): string[] => (lines.length <= 2 ? [...lines] : [lines[0]!, lines[lines.length - 1]!]);
  const pagesByKey = new Map<string, number>();
  for (const lines of pages) for (const k of new Set(edges(lines).map(key))) pagesByKey.set(k, (pagesByKey.get(k) ?? 0) + 1);
  const running = (line: string, i: number, lines: readonly string[]): boolean =>
    (i === 0 || i === lines.length - 1) && (PAGE_NUMBER.test(line.trim()) || (pagesByKey.get(key(line)) ?? 0) >= 3);

  const body = pages.flatMap((lines) => lines.filter((line, i) => !running(line, i, lines)));
  const joined: string[] = [];
  for (const line of body) {
    const previous = joined[joined.length - 1];
    if (previous !== undefined && /\p{Ll}-$/u.test(previous) && /^\p{Ll}/u.test(line)) joined[joined.length - 1] = previous.slice(0, -1) + line;
    else joined.push(line);
  }
  return joined.flatMap(words);
}
