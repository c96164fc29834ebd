import { isGarbled, type TextLayerQuality } from './textLayerQuality';

/** Why a page is OCR'd, or that it is read from its text layer (or is blank). */
export type PageSource = 'text' | 'blank' | 'ocr-no-text' | 'ocr-garbled' | 'ocr-image-page';

/** Below this many visible characters a page has no text layer worth keeping. */
export const MIN_TEXT_CHARS = 20;
/**
 * A page with less text than this is checked for images: a scan with a stamped header line, a
 * slide that is one picture. Above it the text layer is the page (a full page of text over a
 * background picture, or a scan that was already OCR'd), and no image check is paid.
 */
export const SPARSE_TEXT_CHARS = 200;
/** A sparse page whose images cover at least this share of it is read from its pixels. */
export const IMAGE_PAGE_COVERAGE = 0.5;

/** Whether the page's image coverage must be measured before deciding (it costs an operator list). */
export function needsImageCheck(quality: TextLayerQuality): boolean {
  return !isGarbled(quality) && quality.chars < SPARSE_TEXT_CHARS;
}

/**
 * The page-selection rule of a mixed PDF: only pages whose text is missing, garbled, or crowded
 * out by images are OCR'd; every other page keeps its text layer, which is exact and free.
 * `imageCoverage` is the share of the page under images (0..1), or null when not measured.
 */
export function pageSource(quality: TextLayerQuality, imageCoverage: number | null): PageSource {
  if (isGarbled(quality)) return 'ocr-garbled';
  const coverage = imageCoverage ?? 0;
  if (quality.chars < MIN_TEXT_CHARS) return coverage > 0 ? 'ocr-no-text' : quality.chars === 0 ? 'blank' : 'text';
  if (quality.chars < SPARSE_TEXT_CHARS && coverage >= IMAGE_PAGE_COVERAGE) return 'ocr-image-page';
  return 'text';
}
