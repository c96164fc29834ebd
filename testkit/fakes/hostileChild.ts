import { serveTasks } from '../../cpuPool/childServer';
import { permanentError } from '../../contracts/sluiceError';

/**
 * A ProcessPool child whose tasks misbehave the ways a hostile document can make a parser
 * misbehave (cpuPool/parseChild.ts is the real one; this follows the same protocol).
 */

/** Keeps what it allocates reachable, so nothing is collected before the limit is hit. */
const hoard: unknown[] = [];

serveTasks({
  echo: (text: string) => text,
  /** Buffers, outside the JS heap, as pdf.js's decoded streams are: touched page by page, 8 MB at a time. */
  buffers: () => {
    for (;;) hoard.push(Buffer.alloc(8 * 1024 * 1024, 1));
  },
  /** JS heap, in many small arrays. */
  heap: () => {
    for (;;) hoard.push(new Array<number>(100_000).fill(hoard.length));
  },
  /** A synchronous loop that never yields. */
  spin: () => {
    for (;;) {
      // Busy forever: only killing the process stops it.
    }
  },
  /** Finishes, after `ms` milliseconds of waiting: a slow but honest document. */
  slow: (ms: number) => new Promise<string>((resolve) => setTimeout(() => resolve(`slept ${ms} ms`), ms)),
  /** A scan: says it begins a page of OCR every `everyMs`, `pages` times, then finishes. */
  ocrPages: async (
    { pages, everyMs }: { pages: number; everyMs: number },
    ocrPageStarted: (page: number, pages: number | null) => void,
  ) => {
    for (let page = 0; page < pages; page++) {
      ocrPageStarted(page + 1, pages);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    return `read ${pages} pages`;
  },
  /** One page of OCR begun, then a loop that never ends. */
  ocrThenSpin: (_: null, ocrPageStarted: (page: number, pages: number | null) => void) => {
    ocrPageStarted(1, null);
    for (;;) {
      // Busy forever.
    }
  },
  exit: () => process.exit(3),
  refuse: () => {
    throw permanentError('CORRUPT_DOCUMENT', 'the test file is damaged');
  },
});
