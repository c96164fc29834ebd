import type { OcrPageReport, OcrReason } from '../contracts/ocrPages';
import { permanentError } from '../contracts/sluiceError';
import type { OcrEngine, OcrPageResult } from '../ocr/ocrEngine';
import type { RgbaImage } from '../ocr/rgbaImage';
import type { OcrLimits } from './parseLimits';

export type { OcrPageReport, OcrReason };

/** A page's OCR began: its number, and the document's page count where it is known. */
export type OcrPageListener = (page: number, pages: number | null) => void;

/**
 * OCR for one document's parse: enforces the page cap and the per-page time limit, and keeps the
 * report of what was read. The engine is asked for only when the first page needs it.
 */
export class DocumentOcr {
  readonly pages: OcrPageReport[] = [];

  constructor(
    readonly limits: OcrLimits,
    private readonly engine: () => Promise<OcrEngine>,
    /**
     * Told as each page's OCR begins, with the document's page count where it is known: the parse
     * process lets the pool extend the document's deadline, and CLEANING reports the page.
     */
    private readonly onPageStarted: OcrPageListener = () => undefined,
  ) {}

  /** Renders (`pixels`) and reads one page of `pages` (null: not known ahead) within the per-page limit. */
  async read(
    page: number,
    reason: OcrReason,
    pixels: () => Promise<RgbaImage>,
    pages: number | null = null,
  ): Promise<OcrPageResult> {
    if (this.pages.length >= this.limits.maxPages) {
      throw permanentError(
        'FILE_TOO_LARGE',
        `the document needs OCR on more than ${this.limits.maxPages} pages (SLUICE_OCR_MAX_PAGES); page ${page} is past it`,
      );
    }
    const engine = await this.engine();
    this.onPageStarted(page, pages);
    const result = await withinPageLimit(page, this.limits.pageTimeoutMs, async () => engine.recognize(await pixels()));
    let chars = 0;
    for (const line of result.lines) chars += line.text.length;
    this.pages.push({ page, reason, confidence: result.confidence, chars });
    return result;
  }
}

/**
 * The page's work keeps running once the limit passes (an inference in the native runtime cannot
 * be interrupted), but the document fails at once, classified; the parse process finishes the
 * run and is free for the next document.
 */
async function withinPageLimit<T>(page: number, limitMs: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          permanentError(
            'PARSE_TIMEOUT',
            `OCR of page ${page} took longer than the ${limitMs} ms per-page limit (SLUICE_OCR_PAGE_TIMEOUT)`,
          ),
        ),
      limitMs,
    );
  });
  try {
    return await Promise.race([work(), limit]);
  } finally {
    clearTimeout(timer);
  }
}
