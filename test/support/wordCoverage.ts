import { Parser } from 'htmlparser2';

/**
 * Word coverage: the share of the source's word occurrences that the markdown still holds, counted
 * as multisets (a word the source has five times must be in the markdown five times), so a line
 * lost on every page shows even when its words occur elsewhere in the document.
 */
export function wordCoverage(
  sourceWords: readonly string[],
  markdown: string,
): { coverage: number; missing: Map<string, number> } {
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
export function pdfSourceWords(
  allPages: readonly (readonly string[])[],
  leftOut: ReadonlySet<number> = new Set(),
): string[] {
  const pages = allPages.filter((_lines, i) => !leftOut.has(i + 1));
  const key = (line: string): string => line.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
  const edges = (lines: readonly string[]): string[] =>
    lines.length <= 2 ? [...lines] : [lines[0]!, lines[lines.length - 1]!];
  const pagesByKey = new Map<string, number>();
  for (const lines of pages)
    for (const k of new Set(edges(lines).map(key))) pagesByKey.set(k, (pagesByKey.get(k) ?? 0) + 1);
  const running = (line: string, i: number, lines: readonly string[], page: number): boolean =>
    (i === 0 || i === lines.length - 1) &&
    (PAGE_NUMBER.test(line.trim()) ||
      (pagesByKey.get(key(line)) ?? 0) >= 3 ||
      numberedLikeNeighbours(pages, page, i === 0 ? 'first' : 'last'));

  const body = pages.flatMap((lines, page) => lines.filter((line, i) => !running(line, i, lines, page)));
  const joined: string[] = [];
  for (const line of body) {
    const previous = joined[joined.length - 1];
    if (previous !== undefined && /\p{Ll}-$/u.test(previous) && /^\p{Ll}/u.test(line))
      joined[joined.length - 1] = previous.slice(0, -1) + line;
    else joined.push(line);
  }
  return joined.flatMap(words);
}

/**
 * A running header whose text changes on every page ("grid.add 1103" in R's reference manual: the
 * topic, then the page number) recurs only in its number: the same edge line of the page before or
 * after carries the number one lower or higher.
 */
function numberedLikeNeighbours(pages: readonly (readonly string[])[], page: number, edge: 'first' | 'last'): boolean {
  const numberAt = (at: number): number[] => {
    const lines = pages[at];
    if (lines === undefined || lines.length === 0) return [];
    const line = (edge === 'first' ? lines[0]! : lines[lines.length - 1]!).trim();
    const found: number[] = [];
    const head = /^\d{1,5}(?=\s)/.exec(line);
    const tail = /(?<=\s)\d{1,5}$/.exec(line);
    if (head) found.push(Number(head[0]));
    if (tail) found.push(Number(tail[0]));
    return found;
  };
  const own = numberAt(page);
  if (own.length === 0) return false;
  const before = numberAt(page - 1);
  const after = numberAt(page + 1);
  return own.some((n) => before.includes(n - 1) || after.includes(n + 1));
}

/**
 * What a converter may drop from an HTML page on purpose: what no reader sees as text, and the
 * navigation (nav elements; DocBook's navheader/navfooter link tables and a chapter's local table of
 * contents, whose entries are the titles of the pages they link to). Nothing else is left out.
 */
const UNSEEN_TAGS = new Set(['head', 'script', 'style', 'template', 'noscript', 'nav']);
const NAVIGATION_CLASS = /(?:^|\s)(?:navheader|navfooter|toc)(?:\s|$)/;
/** Inline elements: text on either side of their tags runs on ("<acronym>TID</acronym>s" is one word). */
const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'acronym',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
]);

/** The words of an HTML page's text as a reader sees it, the navigation left out (one linear pass). */
export function htmlSourceWords(html: string): string[] {
  const out: string[] = [];
  const skipped: boolean[] = [];
  let skipDepth = 0;
  // A block boundary ends a word; an inline tag or an entity does not.
  let pending = '';
  const flush = (): void => {
    for (const word of words(pending)) out.push(word);
    pending = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (!INLINE_TAGS.has(name)) flush();
        const skip = skipDepth > 0 || UNSEEN_TAGS.has(name) || NAVIGATION_CLASS.test(attributes.class ?? '');
        skipped.push(skip);
        if (skip) skipDepth++;
      },
      onclosetag(name) {
        if (!INLINE_TAGS.has(name)) flush();
        if (skipped.pop() === true) skipDepth--;
      },
      ontext(text) {
        if (skipDepth === 0) pending += text;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  flush();
  return out;
}
