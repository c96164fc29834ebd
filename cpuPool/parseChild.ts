import { parseDocument, type ParseOptions } from '../parsers/convertFile';
import type { SourceFileType } from '../parsers/detectFileType';
import type { ParseLimits } from '../parsers/parseLimits';
import { loadPdfjs } from '../parsers/pdf/loadPdfjs';
import { serveTasks } from './childServer';

/**
 * The child process parsing runs in (cpuPool/processPool.ts). A process, not a thread: its
 * memory limit then covers everything a document makes it hold (pdf.js's decoded streams,
 * Buffers, ArrayBuffers, rendered page bitmaps and the OCR models' working memory, the markdown
 * built and sent back), and killing it frees all of it. It announces readiness once pdf.js is
 * loaded, so the first PDF does not wait for it; the OCR models load on the first page that
 * needs them.
 */
export interface ParseInput {
  filePath: string;
  type: SourceFileType;
  limits: ParseLimits;
  options: ParseOptions;
}

serveTasks(
  {
    parse: (
      { filePath, type, limits, options }: ParseInput,
      ocrPageStarted: (page: number, pages: number | null) => void,
    ) => parseDocument(filePath, type, limits, { ...options, onOcrPage: ocrPageStarted }),
  },
  loadPdfjs(),
);
