import type { ChunkDraft } from '../contracts/chunk';
import { markedPage } from './pageMarkers';

/** Where a page starts in the markdown without its page markers. */
export interface PageStart {
  offset: number;
  page: number;
}

/**
 * The markdown as it was before markers (each marker line goes with the blank line the writer put
 * after it, so "a\n\n<marker>\n\nb" becomes "a\n\nb") and where each marked page starts in it: one
 * pass over the lines.
 */
export function stripPageMarkers(markdown: string): { text: string; starts: PageStart[] } {
  const kept: string[] = [];
  const starts: PageStart[] = [];
  let length = 0;
  let pending: number | null = null;
  let skipBlank = false;
  for (let pos = 0; pos <= markdown.length;) {
    const newline = markdown.indexOf('\n', pos);
    const end = newline < 0 ? markdown.length : newline;
    const line = markdown.slice(pos, end);
    const page = line.charCodeAt(0) === 0x3c ? markedPage(line) : null;
    if (page !== null) {
      pending = page;
      skipBlank = true;
    } else if (skipBlank && line === '') skipBlank = false;
    else {
      skipBlank = false;
      const start = kept.length === 0 ? 0 : length + 1;
      if (pending !== null) {
        starts.push({ offset: start, page: pending });
        pending = null;
      }
      kept.push(line);
      length = start + line.length;
    }
    pos = end + 1;
  }
  return { text: kept.join('\n'), starts };
}

/** The page in force at `offset`: the last page started at or before it; text before the first marker is the first page's. */
function pageAt(starts: PageStart[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((starts[mid] as PageStart).offset <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return (starts[found] as PageStart).page;
}

/** How much of a chunk's start is looked for, and how far past the last chunk it is looked for. */
const PROBE_CHARS = 128;
const SEARCH_SLACK = 4096;

/**
 * Each chunk's first and last page: its text is found in the markdown it was cut from (children
 * and parents each in document order, from where the one before began, within a window a few
 * times its length, so the whole pass stays linear), and the pages it spans are read off the page
 * starts. A chunk whose text a strategy rewrote past finding keeps no pages. Without page
 * markers the drafts are returned untouched.
 */
export function withPages(text: string, starts: PageStart[], drafts: ChunkDraft[]): ChunkDraft[] {
  if (starts.length === 0) return drafts;
  const cursor = { parent: 0, child: 0 };
  return drafts.map((draft) => {
    const from = cursor[draft.kind];
    const window = text.slice(from, from + 4 * draft.text.length + SEARCH_SLACK);
    // A child starts with its section path on a line of its own (chunker/sectionContext.ts): its
    // own text follows the first blank line.
    const body = draft.text.indexOf('\n\n');
    const candidates = [draft.text, ...(body > 0 ? [draft.text.slice(body + 2)] : [])];
    let at = -1;
    let length = 0;
    for (const candidate of candidates) {
      const probe = candidate.slice(0, PROBE_CHARS);
      at = probe === '' ? -1 : window.indexOf(probe);
      length = candidate.length;
      if (at >= 0) break;
    }
    if (at < 0) return draft;
    const start = from + at;
    cursor[draft.kind] = start;
    const end = Math.max(start, start + length - 1);
    return { ...draft, pages: { first: pageAt(starts, start), last: pageAt(starts, end) } };
  });
}
