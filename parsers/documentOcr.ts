import { permanentError } from '../contracts/sluiceError';
import type { OcrEngine, OcrPageResult } from '../ocr/ocrEngine';
import type { RgbaImage } from '../ocr/rgbaImage';
import type { OcrLimits } from './parseLimits';

/** Why a page was OCR'd: no text layer, a garbled one, images covering it, or an image upload. */
export type OcrReason = 'no-text' | 'garbled' | 'image-page' | 'image';

/** One OCR'd page, as CLEANING records it and `sluice status` shows it. */
export interface OcrPageReport {
  /** 1-based page (or image frame). */
  page: number;
  reason: OcrReason;
  /** 0..1, character-weighted over the page's lines. */
  confidence: number;
  /** Characters read. */
  chars: number;
}

/**
 * OCR for one document's parse: enforces the page cap and the per-page time limit, and keeps the
 * report of what was read. The engine is asked for only when the first page needs it.
 */
export class DocumentOcr {
  readonly pages: OcrPageReport[] = [];

  constructor(
    readonly limits: OcrLimits,
    private readonly engine: () => Promise<OcrEngine>,
  ) {}

  /** Renders (`pixels`) and reads one page within the per-page limit. */
  async read(page: number, reason: OcrReason, pixels: () => Promise<RgbaImage>): Promise<OcrPageResult> {
    if (this.pages.length >= this.limits.maxPages) {
      throw permanentError(
        'FILE_TOO_LARGE',
        `the document needs OCR on more than ${this.limits.maxPages} pages (SLUICE_OCR_MAX_PAGES); page ${page} is past it`,
      );
    }
    const engine = await this.engine();
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
          permanentError('PARSE_TIMEOUT', `OCR of page ${page} took longer than the ${limitMs} ms per-page limit (SLUICE_OCR_PAGE_TIMEOUT)`),
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
