import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

export type Pdfjs = typeof PdfjsModule;

let loading: Promise<Pdfjs> | undefined;

/**
 * pdf.js ships as ES modules only, and this project is CommonJS: a dynamic import() loads it.
 * The legacy build is the one meant for Node (no DOM, polyfills for older runtimes). Loaded once
 * per parse thread, and only by threads that parse a PDF.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return loading;
}
