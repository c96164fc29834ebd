/**
 * Page and slide boundaries in parsed markdown: an HTML comment on a line of its own, written by
 * the PDF parser before the first block of each page. Markdown renderers hide comments, and every
 * strategy but `page` removes the lines before chunking (chunker/chunkPages.ts), so the other
 * strategies cut exactly the markdown they cut before markers existed.
 */
const PREFIX = '<!-- sluice:page ';
const SUFFIX = ' -->';

export function pageMarker(page: number): string {
  return `${PREFIX}${page}${SUFFIX}`;
}

/** The page number a line marks, or null. Exact match only: no pattern over user text. */
export function markedPage(line: string): number | null {
  if (!line.startsWith(PREFIX) || !line.endsWith(SUFFIX)) return null;
  const digits = line.slice(PREFIX.length, line.length - SUFFIX.length);
  if (digits.length === 0 || digits.length > 9) return null;
  for (let i = 0; i < digits.length; i++) {
    const code = digits.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return null;
  }
  return Number(digits);
}

export interface MarkedPage {
  /** The marked page number; null for text before the first marker. */
  page: number | null;
  text: string;
}

/** One pass over the lines: the text between markers, page by page, blank pages left out. */
export function splitPages(markdown: string): MarkedPage[] {
  const pages: MarkedPage[] = [];
  let page: number | null = null;
  let start = 0;
  const close = (end: number): void => {
    const text = markdown.slice(start, end).trim();
    if (text !== '') pages.push({ page, text });
  };
  for (let pos = 0; pos < markdown.length;) {
    const newline = markdown.indexOf('\n', pos);
    const end = newline < 0 ? markdown.length : newline;
    const marked = markdown.charCodeAt(pos) === 0x3c ? markedPage(markdown.slice(pos, end)) : null;
    if (marked !== null) {
      close(pos);
      page = marked;
      start = end + 1;
    }
    pos = end + 1;
  }
  close(markdown.length);
  // What comes before the first marker (an OCR marker the parser writes ahead of the page's own, or
  // a preamble) belongs to the first page: alone it would make a page of no text of its own.
  const [first, second] = pages;
  if (first && second && first.page === null)
    pages.splice(0, 2, { page: second.page, text: `${first.text}\n\n${second.text}` });
  return pages;
}

export function hasPageMarkers(markdown: string): boolean {
  return markdown.includes(PREFIX);
}
