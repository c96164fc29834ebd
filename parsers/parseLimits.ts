/**
 * The pixels one image may decode to, an upload's frame or a picture inside a PDF: a 600 dpi A4
 * scan is 35 million. Checked from the image's header (or the PDF's image dictionary) before
 * its pixels are decoded.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** Bounds on what parsing one document may cost; hostile uploads hit these, not the worker. */
export interface ParseLimits {
  /** Wall-clock limit for one document's task in the CPU pool (PARSE_TIMEOUT when parsing). */
  timeoutMs: number;
  /** Total bytes an archive format (DOCX/PPTX/XLSX) may inflate to: the zip-bomb guard. */
  maxUncompressedBytes: number;
  /** V8 heap of each CPU pool thread and parse process; a document needing more fails as FILE_TOO_LARGE. */
  maxHeapMb: number;
  /**
   * Resident memory of a parse process, everything included (heap, Buffers, pdf.js's decoded
   * streams, the markdown): past it the process is killed and the document fails FILE_TOO_LARGE.
   */
  maxMemoryMb: number;
  /** The markdown one document may produce (markdownLimit): a multiple of its source size, under a ceiling. */
  markdown: MarkdownLimits;
  /**
   * Decoded PDF stream bytes one page may allocate per source byte, over a floor and under
   * maxUncompressedBytes (parsers/pdf/decodeBudget.ts decodedLimit).
   */
  pdfDecodedPerSourceByte: number;
  /** Pages to OCR and time per page (scanned PDFs, image uploads). */
  ocr: OcrLimits;
  /** The most attachments one EML or MBOX file turns into documents (SLUICE_MAIL_MAX_ATTACHMENTS). */
  maxMailAttachments: number;
}

export interface MarkdownLimits {
  /** Absolute ceiling on one document's markdown, in UTF-8 bytes (SLUICE_MAX_MARKDOWN_BYTES). */
  maxBytes: number;
  /** Markdown bytes allowed per source byte (SLUICE_MARKDOWN_BYTES_PER_SOURCE_BYTE). */
  perSourceByte: number;
}

/**
 * Any document may produce this much, however small its source: a one-page PDF with little
 * compression still yields its text. Above it, output must stay in proportion to the input.
 */
export const MARKDOWN_FLOOR_BYTES = 4 * 1024 * 1024;

/** The markdown bytes a document of `sourceBytes` may produce. */
export function markdownLimit(limits: MarkdownLimits, sourceBytes: number): number {
  return Math.min(limits.maxBytes, Math.max(MARKDOWN_FLOOR_BYTES, Math.ceil(limits.perSourceByte * sourceBytes)));
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  timeoutMs: 10 * 60_000,
  maxUncompressedBytes: 512 * 1024 * 1024,
  maxHeapMb: 1024,
  maxMemoryMb: 1536,
  markdown: { maxBytes: 256 * 1024 * 1024, perSourceByte: 32 },
  pdfDecodedPerSourceByte: 32,
  ocr: { maxPages: 500, pageTimeoutMs: 2 * 60_000, documentTimeoutMs: 3 * 60 * 60_000, dpi: 150 },
  maxMailAttachments: 20,
};

/** Bounds on OCR within one document's parse (which stays under the limits above too). */
export interface OcrLimits {
  /** Pages (or image frames) one document may have OCR'd (SLUICE_OCR_MAX_PAGES): past it, FILE_TOO_LARGE. */
  maxPages: number;
  /** Rendering and reading one page (SLUICE_OCR_PAGE_TIMEOUT): past it, PARSE_TIMEOUT naming the page. */
  pageTimeoutMs: number;
  /**
   * The most wall clock a document's parse may reach by OCR (SLUICE_OCR_DOCUMENT_TIMEOUT): each page
   * it OCRs adds pageTimeoutMs to timeoutMs, up to this; past it, PARSE_TIMEOUT.
   */
  documentTimeoutMs: number;
  /** Resolution PDF pages are rendered at for OCR (SLUICE_OCR_DPI). */
  dpi: number;
}
