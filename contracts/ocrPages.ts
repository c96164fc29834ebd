/** Why a page was OCR'd: no text layer, a garbled one, images covering it, or an image upload. */
export type OcrReason = 'no-text' | 'garbled' | 'image-page' | 'image';

/** One OCR'd page, as CLEANING records it (parse_tasks.ocr_pages) and `sluice status` shows it. */
export interface OcrPageReport {
  /** 1-based page (or image frame). */
  page: number;
  reason: OcrReason;
  /** 0..1, character-weighted over the page's lines. */
  confidence: number;
  /** Characters read. */
  chars: number;
}
