import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

export type Pdfjs = typeof PdfjsModule;

let loading: Promise<Pdfjs> | undefined;

/**
 * pdf.js ships as ES modules only, and this project is CommonJS: a dynamic import() loads it.
 * The legacy build is the one meant for Node (no DOM, polyfills for older runtimes). Loaded once
 * per thread of the CPU pool, when the thread starts (cpuPool/tasks.ts).
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return loading;
}
