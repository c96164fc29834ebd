import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** One bookmark, placed on its page: what the writer needs to turn it into a heading. */
export interface OutlineEntry {
  title: string;
  /** Nesting depth + 1, capped at markdown's 6. */
  level: number;
  /** Top of the destination in PDF units (y grows upwards); null when it names the page only. */
  top: number | null;
}

/** Entries keyed by their page (pageKey), in outline order within a page. */
export type DocumentOutline = ReadonlyMap<string, OutlineEntry[]>;

/** More bookmarks than any real manual has (refman: 1,426); a hostile outline stops there. */
const MAX_ENTRIES = 50_000;
/** Named destinations resolved at once: pdf.js answers each from the name tree, asynchronously. */
const RESOLVE_BATCH = 32;
/** Below this, a bookmark or two (a title page, "Contents") says nothing about the structure. */
const MIN_ENTRIES = 3;

type OutlineItem = Awaited<ReturnType<PDFDocumentProxy['getOutline']>>[number];
type PageRef = { num: number; gen: number };

/**
 * A page is named by its object reference in destinations, and the page proxy knows its own
 * reference: matching the two places every bookmark as its page streams by, without asking pdf.js
 * for each bookmark's page index (a walk up the page tree per bookmark). A few writers name the
 * page by its 0-based index instead.
 */
export function pageKeys(ref: PageRef | null | undefined, index: number): string[] {
  return ref ? [refKey(ref), indexKey(index)] : [indexKey(index)];
}

const refKey = (ref: PageRef): string => `${ref.num}R${ref.gen}`;
const indexKey = (index: number): string => `#${index}`;

/** The bookmarks that point at a page, whichever way their destination names it. */
export function entriesOfPage(outline: DocumentOutline, keys: readonly string[]): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  for (const key of keys) for (const entry of outline.get(key) ?? []) entries.push(entry);
  return entries;
}

/**
 * The document's bookmarks, or null when it has (almost) none or they cannot be read: headings
 * then come from font sizes. A bookmark whose destination cannot be resolved is left out.
 */
export async function readOutline(pdf: PDFDocumentProxy): Promise<DocumentOutline | null> {
  let items: OutlineItem[] | null;
  try {
    items = await pdf.getOutline();
  } catch {
    return null;
  }
  const flat = flatten(items ?? []);
  const byPage = new Map<string, OutlineEntry[]>();
  let placed = 0;
  for (let i = 0; i < flat.length; i += RESOLVE_BATCH) {
    const batch = flat.slice(i, i + RESOLVE_BATCH);
    const resolved = await Promise.all(batch.map(({ item }) => resolveDestination(pdf, item.dest)));
    batch.forEach(({ item, level }, j) => {
      const target = resolved[j];
      const title = item.title.replace(/\s+/g, ' ').trim();
      if (!target || title === '') return;
      const entries = byPage.get(target.key) ?? [];
      entries.push({ title, level, top: target.top });
      byPage.set(target.key, entries);
      placed++;
    });
  }
  return placed >= MIN_ENTRIES ? byPage : null;
}

/** Depth-first, in reading order, with an explicit stack: nesting depth is the document's to choose. */
function flatten(roots: OutlineItem[]): { item: OutlineItem; level: number }[] {
  const flat: { item: OutlineItem; level: number }[] = [];
  const stack: { items: OutlineItem[]; next: number; depth: number }[] = [{ items: roots, next: 0, depth: 1 }];
  while (stack.length > 0 && flat.length < MAX_ENTRIES) {
    const top = stack[stack.length - 1]!;
    const item = top.items[top.next++];
    if (!item) {
      stack.pop();
      continue;
    }
    flat.push({ item, level: Math.min(top.depth, 6) });
    if (item.items.length > 0) stack.push({ items: item.items, next: 0, depth: top.depth + 1 });
  }
  return flat;
}

async function resolveDestination(
  pdf: PDFDocumentProxy,
  dest: OutlineItem['dest'],
): Promise<{ key: string; top: number | null } | null> {
  try {
    const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
    if (!Array.isArray(explicit)) return null;
    const page: unknown = explicit[0];
    let key: string;
    if (typeof page === 'number' && Number.isInteger(page)) key = indexKey(page);
    else if (isRef(page)) key = refKey(page);
    else return null;
    return { key, top: destinationTop(explicit) };
  } catch {
    return null;
  }
}

/** PDF 32000 §12.3.2.2: XYZ and FitH/FitBH carry a top, FitR a rectangle; Fit/FitB/FitV none. */
function destinationTop(dest: unknown[]): number | null {
  const kind = (dest[1] as { name?: string } | null)?.name;
  const value =
    kind === 'XYZ' ? dest[3] : kind === 'FitH' || kind === 'FitBH' ? dest[2] : kind === 'FitR' ? dest[5] : null;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function isRef(value: unknown): value is PageRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PageRef).num === 'number' &&
    typeof (value as PageRef).gen === 'number'
  );
}
