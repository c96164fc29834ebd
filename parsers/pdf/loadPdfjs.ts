import { runInNewContext } from 'node:vm';
import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { importMeteredWorker } from './decodeMeter';

export type Pdfjs = typeof PdfjsModule;

let loading: Promise<Pdfjs> | undefined;

/**
 * pdf.js ships as ES modules only, and this project is CommonJS: a dynamic import() loads it.
 * The legacy build is the one meant for Node (no DOM, polyfills for older runtimes). Loaded once
 * per thread of the CPU pool, when the thread starts (cpuPool/tasks.ts).
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= importKeepingBuiltins();
  return loading;
}

/**
 * The legacy build's core-js polyfills replace Array.prototype.push (for arrays longer than 2^32)
 * and JSON.parse/stringify (for JSON.rawJSON) in the whole thread: every push in the parser and in
 * pdf.js then runs through a property-descriptor check, about a tenth of a PDF's parse time.
 * pdf.js needs neither behaviour, so the native ones are put back once both halves of pdf.js are
 * loaded: the worker half is loaded here, with its decoders metered (decodeMeter.ts), and handed to
 * pdf.js (globalThis.pdfjsWorker is how its main-thread "fake worker" finds it), so no later import
 * installs the polyfills again and no unmetered copy of the worker is ever loaded.
 */
async function importKeepingBuiltins(): Promise<Pdfjs> {
  const { push, parse, stringify } = nativeBuiltins();
  try {
    const [pdfjs, worker] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), importMeteredWorker()]);
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return pdfjs;
  } finally {
    Object.defineProperty(Array.prototype, 'push', push);
    JSON.parse = parse;
    JSON.stringify = stringify;
  }
}

interface Builtins {
  push: PropertyDescriptor;
  parse: typeof JSON.parse;
  stringify: typeof JSON.stringify;
}

/**
 * Another core-js bundle loaded earlier in the thread (pdf-parse bundles its own pdf.js, so the
 * parse benchmark's process has one) may already have replaced push, and core-js makes its
 * replacements print as native code in this realm. A fresh V8 context's Function toString tells
 * them apart, and that context's push, which works on any array, stands in for the lost original.
 * JSON stays as found: another realm's JSON.parse would build objects of that realm.
 */
function nativeBuiltins(): Builtins {
  const fresh = runInNewContext(
    "({ push: Object.getOwnPropertyDescriptor(Array.prototype, 'push'), toString: Function.prototype.toString })",
  ) as { push: PropertyDescriptor; toString: (this: unknown) => string };
  const push = Object.getOwnPropertyDescriptor(Array.prototype, 'push') as PropertyDescriptor;
  const isNative = /\{\s*\[native code\]\s*\}$/.test(fresh.toString.call(push.value));
  return { push: isNative ? push : fresh.push, parse: JSON.parse, stringify: JSON.stringify };
}
