import { z } from 'zod';
import { duration, durationMs } from './durations';
import type { EnvOf } from './envShape';

export const parsingEnv = {
  SLUICE_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024)
    .describe('Largest file accepted, uploaded or named as a source.'),
  SLUICE_PARSE_TIMEOUT: duration('10m, 90s or 500ms')
    .default('10m')
    .describe("Wall-clock limit of one document's parse (PARSE_TIMEOUT)."),
  SLUICE_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024 * 1024)
    .describe('Zip-bomb guard: the most an Office package may inflate to, nested archives included.'),
  SLUICE_PARSE_HEAP_MB: z.coerce
    .number()
    .int()
    .min(64)
    .max(16384)
    .default(1024)
    .describe('V8 heap of a parse process and of a CPU-pool thread.'),
  // The whole of a parse process (cpuPool/processPool.ts); docs/document-memory.md.
  SLUICE_PARSE_MEMORY_MB: z.coerce
    .number()
    .int()
    .min(128)
    .max(65536)
    .optional()
    .describe(
      'Resident memory of one parse process, all of it. Unset: the heap plus 512 MB for what lives outside it.',
    ),
  SLUICE_MAX_MARKDOWN_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1024 * 1024)
    .describe('Ceiling on the markdown one document may produce.'),
  SLUICE_MARKDOWN_BYTES_PER_SOURCE_BYTE: z.coerce
    .number()
    .positive()
    .max(10_000)
    .default(32)
    .describe('Markdown a document may produce per byte of its source, under the ceiling (floor 4 MiB).'),
  // parsers/pdf/decodeBudget.ts: a 600 KB PDF whose one stream inflates to 600 MB stops at the floor.
  SLUICE_PDF_DECODED_BYTES_PER_SOURCE_BYTE: z.coerce
    .number()
    .positive()
    .max(10_000)
    .default(32)
    .describe(
      "Bytes a PDF's streams may decode to for one page, per byte of the file: over a 64 MiB floor, under SLUICE_MAX_UNCOMPRESSED_BYTES (FILE_TOO_LARGE).",
    ),
  // OCR of scanned pages and image uploads (parsers/documentOcr.ts), inside the parse limits above.
  SLUICE_OCR_MAX_PAGES: z.coerce
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(500)
    .describe('Most pages one document may OCR; one needing more fails FILE_TOO_LARGE.'),
  SLUICE_OCR_PAGE_TIMEOUT: duration('60s, 2m or 500ms')
    .default('2m')
    .describe('Time a parse gains for each page it OCRs.'),
  // A 300-page scan took 41 minutes of one core under load (bench:ocr-long).
  SLUICE_OCR_DOCUMENT_TIMEOUT: duration('3h, 90m or 500ms')
    .default('3h')
    .describe('The most a parse that OCRs may take; one that OCRs nothing keeps SLUICE_PARSE_TIMEOUT.'),
  SLUICE_OCR_DPI: z.coerce
    .number()
    .int()
    .min(72)
    .max(600)
    .default(150)
    .describe('Resolution PDF pages are rendered at for OCR.'),
  // parsers/mail/mailAttachments.ts: a message with 10,000 tiny attachments makes 20 documents.
  SLUICE_MAIL_MAX_ATTACHMENTS: z.coerce
    .number()
    .int()
    .min(0)
    .max(64)
    .default(20)
    .describe('Most attachments one EML or MBOX file turns into documents of their own; past it TOO_MANY_ATTACHMENTS.'),
  SLUICE_MAX_CHUNKS_PER_DOCUMENT: z.coerce
    .number()
    .int()
    .positive()
    .default(200_000)
    .describe('Most chunks (parents and children) one document may produce.'),
  SLUICE_CHUNK_MAX_TOKENS: z.coerce
    .number()
    .int()
    .min(16)
    .max(8192)
    .default(400)
    .describe("Child-chunk size of the `general` strategy when a dataset's settings give none."),
  SLUICE_CHUNK_OVERLAP_TOKENS: z.coerce
    .number()
    .int()
    .min(0)
    .max(4096)
    .default(60)
    .describe('Tokens consecutive `general` chunks share; at most half of SLUICE_CHUNK_MAX_TOKENS.'),
};

export interface ParsingSettings {
  maxFileBytes: number;
  /**
   * Per-document parse limits: wall clock, zip-bomb guard, parse-thread heap, a parse process's
   * whole memory and the markdown it may produce (parsers/parseLimits.ts ParseLimits, field for field).
   */
  parsing: {
    timeoutMs: number;
    maxUncompressedBytes: number;
    maxHeapMb: number;
    maxMemoryMb: number;
    markdown: { maxBytes: number; perSourceByte: number };
    pdfDecodedPerSourceByte: number;
    ocr: { maxPages: number; pageTimeoutMs: number; documentTimeoutMs: number; dpi: number };
    maxMailAttachments: number;
  };
  chunking: { maxTokens: number; overlapTokens: number; maxChunks: number };
}

export function parsingSettings(e: EnvOf<typeof parsingEnv>, problems: string[]): ParsingSettings {
  if (e.SLUICE_CHUNK_OVERLAP_TOKENS * 2 > e.SLUICE_CHUNK_MAX_TOKENS) {
    problems.push('SLUICE_CHUNK_OVERLAP_TOKENS: must be at most half of SLUICE_CHUNK_MAX_TOKENS');
  }
  if (e.SLUICE_PARSE_MEMORY_MB !== undefined && e.SLUICE_PARSE_MEMORY_MB <= e.SLUICE_PARSE_HEAP_MB) {
    problems.push('SLUICE_PARSE_MEMORY_MB: must be above SLUICE_PARSE_HEAP_MB (the heap is part of the memory)');
  }
  return {
    maxFileBytes: e.SLUICE_MAX_FILE_BYTES,
    parsing: {
      timeoutMs: durationMs(e.SLUICE_PARSE_TIMEOUT),
      maxUncompressedBytes: e.SLUICE_MAX_UNCOMPRESSED_BYTES,
      maxHeapMb: e.SLUICE_PARSE_HEAP_MB,
      maxMemoryMb: e.SLUICE_PARSE_MEMORY_MB ?? e.SLUICE_PARSE_HEAP_MB + 512,
      markdown: { maxBytes: e.SLUICE_MAX_MARKDOWN_BYTES, perSourceByte: e.SLUICE_MARKDOWN_BYTES_PER_SOURCE_BYTE },
      pdfDecodedPerSourceByte: e.SLUICE_PDF_DECODED_BYTES_PER_SOURCE_BYTE,
      ocr: {
        maxPages: e.SLUICE_OCR_MAX_PAGES,
        pageTimeoutMs: durationMs(e.SLUICE_OCR_PAGE_TIMEOUT),
        documentTimeoutMs: durationMs(e.SLUICE_OCR_DOCUMENT_TIMEOUT),
        dpi: e.SLUICE_OCR_DPI,
      },
      maxMailAttachments: e.SLUICE_MAIL_MAX_ATTACHMENTS,
    },
    chunking: {
      maxTokens: e.SLUICE_CHUNK_MAX_TOKENS,
      overlapTokens: e.SLUICE_CHUNK_OVERLAP_TOKENS,
      maxChunks: e.SLUICE_MAX_CHUNKS_PER_DOCUMENT,
    },
  };
}
