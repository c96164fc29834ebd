import { open } from 'node:fs/promises';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { permanentError } from '../../contracts/sluiceError';
import { buildLayoutProfile } from './layoutProfile';
import { PdfMarkdownWriter } from './markdownWriter';
import { openPdf } from './openPdf';
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
}

/**
 * PDF to markdown, one page at a time: a page's text is read, turned into lines and handed to the
 * writer, then the page is released. Nothing but the markdown written so far grows with the
 * page count.
 */
export async function pdfToMarkdown(filePath: string, stats?: PdfStats): Promise<string> {
  const file = await open(filePath, 'r');
  try {
    const { size } = await file.stat();
    const pdf = await openPdf(file, size);
    try {
      if (stats) stats.pages = pdf.numPages;
      return await convertPages(pdf);
    } finally {
      await pdf.destroy();
    }
  } finally {
    await file.close();
  }
}

async function convertPages(pdf: PDFDocumentProxy): Promise<string> {
  const sample: PdfLine[][] = [];
  const step = Math.max(1, pdf.numPages / SAMPLE_PAGES);
  for (let n = 1; n <= pdf.numPages; n += step) sample.push((await readPage(pdf, Math.floor(n))) ?? []);
  const writer = new PdfMarkdownWriter(buildLayoutProfile(sample));

  let unreadable = 0;
  for (let n = 1; n <= pdf.numPages; n++) {
    const lines = await readPage(pdf, n);
    if (lines) writer.addPage(lines);
    else unreadable++;
    if (n % CLEANUP_EVERY_PAGES === 0) await pdf.cleanup();
  }
  if (unreadable > pdf.numPages / 2) {
    throw permanentError('CORRUPT_DOCUMENT', `${unreadable} of ${pdf.numPages} PDF pages could not be read`);
  }
  const markdown = writer.finish();
  if (markdown.trim() === '') {
    throw permanentError('EMPTY_DOCUMENT', `the PDF's ${pdf.numPages} pages carry no text layer (scanned images need OCR, which is not supported)`);
  }
  return markdown;
}

/** A damaged page costs its own text only (null); the others are still indexed. */
async function readPage(pdf: PDFDocumentProxy, pageNumber: number): Promise<PdfLine[] | null> {
  try {
    const page = await pdf.getPage(pageNumber);
    try {
      return pageLines(await page.getTextContent());
    } finally {
      page.cleanup();
    }
  } catch {
    return null;
  }
}
