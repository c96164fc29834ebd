import { open } from 'node:fs/promises';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { permanentError } from '../../contracts/sluiceError';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from '../markdownBudget';
import { buildLayoutProfile } from './layoutProfile';
import { PdfMarkdownWriter } from './markdownWriter';
import { openPdf } from './openPdf';
import { entriesOfPage, pageKeys, readOutline } from './outline';
import { pageLines, type PdfLine } from './pageLines';

/** Pages read up front to learn the typography; spread evenly so a title page does not dominate. */
const SAMPLE_PAGES = 24;
/**
 * pdf.js keeps fonts and parsed objects of visited pages; releasing them this often keeps memory
 * flat on a long document, at the cost of reloading a shared font now and then.
 */
const CLEANUP_EVERY_PAGES = 25;

export interface PdfStats {
  pages: number;
  /** Pages left out as table of contents or index (1-based). */
  referencePages: number[];
  /** Bookmarks the outline has (0: headings came from font sizes). */
  outlineEntries: number;
}

/**
 * PDF to markdown, one page at a time: a page's text is read, turned into lines and handed to the
 * writer, then the page is released. Nothing but the markdown written so far grows with the
 * page count.
 */
export async function pdfToMarkdown(
  filePath: string,
  stats?: PdfStats,
  budget: MarkdownBudget = UNLIMITED_MARKDOWN(),
): Promise<string> {
  const file = await open(filePath, 'r');
  try {
    const { size } = await file.stat();
    const pdf = await openPdf(file, size);
    try {
      return await convertPages(pdf, stats, budget);
    } finally {
      await pdf.destroy();
    }
  } finally {
    await file.close();
  }
}

async function convertPages(
  pdf: PDFDocumentProxy,
  stats: PdfStats | undefined,
  budget: MarkdownBudget,
): Promise<string> {
  // Kept until the stream reaches them: reading a page twice cost a fifth of a 100-page document's parse.
  const sampled = new Map<number, ReadPage | null>();
  const step = Math.max(1, pdf.numPages / SAMPLE_PAGES);
  for (let n = 1; n <= pdf.numPages; n += step) sampled.set(Math.floor(n), await readPage(pdf, Math.floor(n)));
  const sample = [...sampled.values()].map((page) => page?.lines ?? []);
  const outline = await readOutline(pdf);
  const writer = new PdfMarkdownWriter(buildLayoutProfile(sample), outline !== null);
  if (stats) Object.assign(stats, { pages: pdf.numPages, referencePages: [], outlineEntries: countEntries(outline) });

  let unreadable = 0;
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = sampled.has(n) ? sampled.get(n) : await readPage(pdf, n);
    sampled.delete(n);
    // Counted as each page is read: a content stream inflating to pages of text stops here.
    for (const line of page?.lines ?? []) budget.add(line.text, 1);
    if (!page) unreadable++;
    else if (!writer.addPage(page.lines, outline ? entriesOfPage(outline, page.keys) : [], n))
      stats?.referencePages.push(n);
    if (n % CLEANUP_EVERY_PAGES === 0) await pdf.cleanup();
  }
  if (unreadable > pdf.numPages / 2) {
    throw permanentError('CORRUPT_DOCUMENT', `${unreadable} of ${pdf.numPages} PDF pages could not be read`);
  }
  const markdown = writer.finish();
  if (markdown.trim() === '') {
    throw permanentError(
      'EMPTY_DOCUMENT',
      `the PDF's ${pdf.numPages} pages carry no text layer (scanned images need OCR, which is not supported)`,
    );
  }
  return markdown;
}

function countEntries(outline: Awaited<ReturnType<typeof readOutline>>): number {
  let count = 0;
  for (const entries of outline?.values() ?? []) count += entries.length;
  return count;
}

interface ReadPage {
  lines: PdfLine[];
  /** How outline destinations name this page (outline.ts pageKeys). */
  keys: string[];
}

/** A damaged page costs its own text only (null); the others are still indexed. */
async function readPage(pdf: PDFDocumentProxy, pageNumber: number): Promise<ReadPage | null> {
  try {
    const page = await pdf.getPage(pageNumber);
    try {
      return { lines: pageLines(await page.getTextContent()), keys: pageKeys(page.ref, pageNumber - 1) };
    } finally {
      page.cleanup();
    }
  } catch {
    return null;
  }
}
