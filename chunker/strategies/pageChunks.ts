import type { ChunkDraft } from '../../contracts/chunk';
import type { ChunkingParameters } from '../../contracts/chunkingPlan';
import { ChunkSink } from '../chunkSink';
import { hasPageMarkers, splitPages } from '../pageMarkers';
import { splitSections } from '../splitSections';

/**
 * `page`: one parent per PDF page, slide or sheet, for decks and forms, where the page is the unit
 * a reader means. Pages come from the parsers' markers (pageMarkers.ts); a page is named by the
 * top-level heading it starts with (a slide's "# Slide 3: Title", a sheet's name), else "Page N".
 * Markdown without markers is cut at its top-level headings. Children split the page's text to
 * childTokens, led by the page's name.
 */
export function pageChunks(
  documentId: string,
  markdown: string,
  parameters: ChunkingParameters,
  maxChunks: number,
): ChunkDraft[] {
  const sink = new ChunkSink(documentId, maxChunks);
  const { childTokens, overlapTokens } = parameters;
  for (const page of pagesOf(markdown)) sink.addParent(page.path, page.text, page.text, childTokens, overlapTokens);
  return sink.chunks;
}

interface Page {
  path: string[];
  text: string;
}

function pagesOf(markdown: string): Page[] {
  if (hasPageMarkers(markdown))
    return splitPages(markdown).map(({ page, text }) => ({ path: page === null ? [] : [pageName(page, text)], text }));
  const pages: Page[] = [];
  let current: { title: string; parts: string[] } | null = null;
  const close = (): void => {
    const text = current?.parts.join('\n\n').trim() ?? '';
    if (current && text !== '') pages.push({ path: current.title === '' ? [] : [current.title], text });
  };
  for (const section of splitSections(markdown)) {
    const part = section.heading === null ? section.body : `${section.heading.trim()}\n\n${section.body}`;
    const top = section.path.length === 1 ? section.path[0]! : null;
    if (current === null || top !== null) {
      close();
      current = { title: top ?? '', parts: [] };
    }
    current.parts.push(part.trim());
  }
  close();
  return pages;
}

/** The top-level heading a page starts with, else "Page N". */
function pageName(page: number, text: string): string {
  if (!text.startsWith('# ')) return `Page ${page}`;
  const end = text.indexOf('\n');
  const title = text.slice(2, end < 0 ? undefined : end).trim();
  return title === '' ? `Page ${page}` : title;
}
