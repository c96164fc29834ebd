import { permanentError } from '../../contracts/sluiceError';

/**
 * The name pdf.js's decoders call, once metered (decodeMeter.ts), with the bytes each is about
 * to allocate for decoded data. A symbol registered by name, so the patched module finds it on
 * globalThis without importing anything of ours.
 */
export const DECODE_METER = Symbol.for('sluice.pdfDecodedBytes');

/** Decoded-stream bytes any PDF page may allocate, however small the file: a page of fonts and images. */
export const DECODED_FLOOR_BYTES = 64 * 1024 * 1024;

export interface DecodedLimits {
  /** The absolute ceiling (SLUICE_MAX_UNCOMPRESSED_BYTES), as for archives. */
  maxBytes: number;
  /** Decoded bytes allowed per source byte (SLUICE_PDF_DECODED_BYTES_PER_SOURCE_BYTE). */
  perSourceByte: number;
}

/** The decoded bytes one page of a PDF of `sourceBytes` may allocate. */
export function decodedLimit(limits: DecodedLimits, sourceBytes: number): number {
  return Math.min(limits.maxBytes, Math.max(DECODED_FLOOR_BYTES, Math.ceil(limits.perSourceByte * sourceBytes)));
}

type Meter = (bytes: number) => void;
const active = new Set<PdfDecodeBudget>();

/**
 * What pdf.js may decode for one page (and for opening the document): every stream filter's
 * output buffer (Flate, LZW, RunLength, ASCII85/hex, CCITT, decryption, Brotli) is charged before
 * it is allocated, and past the limit the allocation throws instead. pdf.js turns a failing
 * stream into a missing operator or page, so the refusal is kept here (sticky) and read back by
 * `check` after each step: the document then fails FILE_TOO_LARGE, with resident memory grown by
 * about the limit, not by what the stream claims to hold. A window, not a document total: memory
 * decoded for a page is released with it, and the parse timeout bounds the document's time.
 */
export class PdfDecodeBudget {
  private used = 0;
  private exceededBy: number | null = null;

  constructor(readonly limitBytes: number) {}

  /** Installs the budget for pdf.js's decoders in this thread until `release`. */
  static open(limitBytes: number): PdfDecodeBudget {
    const budget = new PdfDecodeBudget(limitBytes);
    active.add(budget);
    (globalThis as { [DECODE_METER]?: Meter })[DECODE_METER] ??= chargeActive;
    return budget;
  }

  release(): void {
    active.delete(this);
  }

  /** A new page: what earlier pages decoded was released with them. A refusal stays. */
  nextWindow(): void {
    this.used = 0;
  }

  charge(bytes: number): void {
    if (this.exceededBy === null && this.used + bytes <= this.limitBytes) {
      this.used += bytes;
      return;
    }
    this.exceededBy ??= this.used + bytes;
    throw new Error(`decoded PDF streams would exceed ${this.limitBytes} bytes`);
  }

  /** Throws FILE_TOO_LARGE once any decoder was refused. */
  check(): void {
    if (this.exceededBy === null) return;
    throw permanentError(
      'FILE_TOO_LARGE',
      `the PDF's streams decode to more than ${formatMb(this.limitBytes)} for one page (the limit for a file of its size)`,
    );
  }
}

function chargeActive(bytes: number): void {
  for (const budget of active) budget.charge(bytes);
}

function formatMb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}
