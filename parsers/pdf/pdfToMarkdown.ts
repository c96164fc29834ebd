import { open } from 'node:fs/promises';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ocrMarker, textLayerMarker } from '../../contracts/ocrMarkers';
import { permanentError, SluiceError } from '../../contracts/sluiceError';
import type { DocumentOcr } from '../documentOcr';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from '../markdownBudget';
import { ocrToPdfLines } from '../ocrLines';
import { DEFAULT_PARSE_LIMITS } from '../parseLimits';
import { decodedLimit, PdfDecodeBudget, type DecodedLimits } from './decodeBudget';
import { imageCoverage } from './imageCoverage';
import { boldFonts } from './boldFonts';
import { buildLayoutProfile } from './layoutProfile';
import { PdfMarkdownWriter } from './markdownWriter';
import { loadPdfjs } from './loadPdfjs';
import { needsImageCheck, pageSource } from './ocrDecision';
import { openPdf } from './openPdf';
import { entriesOfPage, pageKeys, readOutline } from './outline';
import type { PageShapes } from './pageGeometry';
import { pageLines } from './pageLines';
import type { PdfLine } from './pdfLine';
import { readPageShapes } from './pageShapes';
import { mayHoldShapeBullets, withShapeBullets } from './shapeBullets';
import { renderPage } from './renderPage';
import { mayHoldTable } from './tables/placeTables';
import { textLayerQuality } from './textLayerQuality';

/** Pages read up front to learn the typography; spread evenly so a title page does not dominate. */
const SAMPLE_PAGES = 24;
/**
 * pdf.js keeps fonts and parsed objects of visited pages; releasing them this often keeps memory
 * flat on a long document, at the cost of reloading a shared font now and then.
 */
const CLEANUP_EVERY_PAGES = 25;
/** A page's bitmap for OCR stays under this many pixels (a 150 dpi A4 page is 2.2 million). */
const MAX_RENDER_PIXELS = 12_000_000;

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
 * page count. With `ocr`, a page whose text layer is missing, garbled or crowded out by images
 * (ocrDecision.ts) is rendered and read by OCR instead, one page's bitmap at a time, and marked
 * as such in the markdown (contracts/ocrMarkers.ts); the other pages keep their text layer.
 */
export async function pdfToMarkdown(
  filePath: string,
  stats?: PdfStats,
  budget: MarkdownBudget = UNLIMITED_MARKDOWN(),
  ocr?: DocumentOcr,
  decoded: DecodedLimits = DEFAULT_DECODED_LIMITS,
): Promise<string> {
  const file = await open(filePath, 'r');
  try {
    const { size } = await file.stat();
    const decoding = PdfDecodeBudget.open(decodedLimit(decoded, size));
    try {
      const pdf = await openPdf(file, size).catch((error: unknown) => {
        decoding.check();
        throw error;
      });
      try {
        decoding.check();
        return await convertPages(pdf, stats, budget, ocr, decoding);
      } finally {
        await pdf.destroy();
      }
    } finally {
      decoding.release();
    }
  } finally {
    await file.close();
  }
}

const DEFAULT_DECODED_LIMITS: DecodedLimits = {
  maxBytes: DEFAULT_PARSE_LIMITS.maxUncompressedBytes,
  perSourceByte: DEFAULT_PARSE_LIMITS.pdfDecodedPerSourceByte,
};

async function convertPages(
  pdf: PDFDocumentProxy,
  stats: PdfStats | undefined,
  budget: MarkdownBudget,
  ocr: DocumentOcr | undefined,
  decoding: PdfDecodeBudget,
): Promise<string> {
  const read = (n: number) => readPage(pdf, n, ocr, decoding);
  // Kept until the stream reaches them: reading a page twice cost a fifth of a 100-page document's parse.
  const sampled = new Map<number, ReadPage | null>();
  const step = Math.max(1, pdf.numPages / SAMPLE_PAGES);
  for (let n = 1; n <= pdf.numPages; n += step) sampled.set(Math.floor(n), await read(Math.floor(n)));
  const sampleLines = new Map([...sampled].map(([n, page]) => [n, page?.lines ?? []]));
  const bold = await boldFonts(pdf, sampleLines, () => decoding.nextWindow());
  decoding.nextWindow();
  const outline = await readOutline(pdf);
  decoding.check();
  const writer = new PdfMarkdownWriter(buildLayoutProfile([...sampleLines.values()], bold), outline !== null);
  if (stats) Object.assign(stats, { pages: pdf.numPages, referencePages: [], outlineEntries: countEntries(outline) });

  let unreadable = 0;
  let afterOcr = false;
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = sampled.has(n) ? sampled.get(n) : await read(n);
    sampled.delete(n);
    // Counted as each page is read: a content stream inflating to pages of text stops here.
    for (const line of page?.lines ?? []) budget.add(line.text, 1);
    if (page && page.lines.length > 0) {
      if (page.ocrConfidence !== undefined) writer.addMarker(ocrMarker(n, page.ocrConfidence));
      else if (afterOcr) writer.addMarker(textLayerMarker(n));
      afterOcr = page.ocrConfidence !== undefined;
    }
    if (!page) unreadable++;
    else if (!writer.addPage(page.lines, outline ? entriesOfPage(outline, page.keys) : [], n, page.shapes))
      stats?.referencePages.push(n);
    if (n % CLEANUP_EVERY_PAGES === 0) await pdf.cleanup();
  }
  if (unreadable > pdf.numPages / 2) {
    throw permanentError('CORRUPT_DOCUMENT', `${unreadable} of ${pdf.numPages} PDF pages could not be read`);
  }
  const markdown = writer.finish();
  if (markdown.trim() === '') {
    const read = ocr?.pages.length ?? 0;
    throw permanentError(
      'EMPTY_DOCUMENT',
      ocr
        ? `the PDF's ${pdf.numPages} pages carry no text layer, and OCR found no text on the ${read} pages it read`
        : `the PDF's ${pdf.numPages} pages carry no text layer (and OCR was not enabled for this parse)`,
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
  /** Set when the lines were read by OCR: the page's confidence. */
  ocrConfidence?: number;
  /** The page's rules and marks, read only when its text may hold a table (tables/placeTables.ts). */
  shapes?: PageShapes;
}

/**
 * A damaged page costs its own text only (null); the others are still indexed. OCR's own
 * refusals (the page cap, the per-page time limit) end the parse: they are classified.
 */
async function readPage(
  pdf: PDFDocumentProxy,
  pageNumber: number,
  ocr: DocumentOcr | undefined,
  decoding: PdfDecodeBudget,
): Promise<ReadPage | null> {
  decoding.nextWindow();
  try {
    return await readPageWithin(pdf, pageNumber, ocr);
  } finally {
    // A refused decode fails the document, whatever pdf.js made of the stream it could not decode.
    decoding.check();
  }
}

async function readPageWithin(
  pdf: PDFDocumentProxy,
  pageNumber: number,
  ocr: DocumentOcr | undefined,
): Promise<ReadPage | null> {
  try {
    const page = await pdf.getPage(pageNumber);
    try {
      const text = pageLines(await page.getTextContent());
      const keys = pageKeys(page.ref, pageNumber - 1);
      // The operator list costs about what the text did: read only where a table or drawn bullets may be.
      const shapes =
        mayHoldTable(text) || mayHoldShapeBullets(text) ? await readPageShapes(await loadPdfjs(), page) : undefined;
      const lines = shapes ? withShapeBullets(text, shapes.marks) : text;
      if (!ocr) return { lines, keys, shapes };
      const quality = textLayerQuality(lines.map((line) => line.text).join('\n'));
      const coverage = needsImageCheck(quality) ? await imageCoverage(await loadPdfjs(), page) : null;
      const source = pageSource(quality, coverage);
      if (!source.startsWith('ocr-')) return { lines, keys, shapes };
      const reason = source === 'ocr-garbled' ? 'garbled' : source === 'ocr-no-text' ? 'no-text' : 'image-page';
      let scale = 1;
      const result = await ocr.read(
        pageNumber,
        reason,
        async () => {
          const rendered = await renderPage(page, ocr.limits.dpi, MAX_RENDER_PIXELS);
          scale = rendered.scale;
          return rendered.image;
        },
        pdf.numPages,
      );
      const height = page.getViewport({ scale: 1 }).height;
      return { lines: ocrToPdfLines(result.lines, scale, height), keys, ocrConfidence: result.confidence };
    } finally {
      page.cleanup();
    }
  } catch (error) {
    if (error instanceof SluiceError) throw error;
    return null;
  }
}
