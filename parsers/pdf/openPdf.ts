import type { FileHandle } from 'node:fs/promises';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { permanentError } from '../../contracts/sluiceError';
import { MAX_IMAGE_PIXELS } from '../parseLimits';
import { loadPdfjs } from './loadPdfjs';

/** pdf.js asks for byte ranges of this size; small enough that only what a page needs is read. */
const RANGE_CHUNK_BYTES = 64 * 1024;

/** PDF 1.7 §7.5.5 puts %%EOF at the end; readers accept it within the last kilobyte. */
const EOF_WINDOW_BYTES = 1024;

/**
 * Opens a PDF without reading it whole: pdf.js requests the byte ranges it needs (cross-reference
 * table, then each page's objects as the page is parsed) and this transport reads them from the
 * file. With auto-fetch off, memory follows the pages being parsed, not the file size.
 */
export async function openPdf(file: FileHandle, size: number): Promise<PDFDocumentProxy> {
  await assertNotTruncated(file, size);
  const pdfjs = await loadPdfjs();
  const initial = await readRange(file, 0, Math.min(size, RANGE_CHUNK_BYTES));

  class FileRangeTransport extends pdfjs.PDFDataRangeTransport {
    override requestDataRange(begin: number, end: number): void {
      readRange(file, begin, end).then(
        (chunk) => this.onDataRange(begin, chunk),
        // An I/O error here is ours, not the document's; pdf.js then fails the pending page load.
        () => this.onDataRange(begin, null),
      );
    }
  }

  const task = pdfjs.getDocument({
    range: new FileRangeTransport(size, initial),
    length: size,
    rangeChunkSize: RANGE_CHUNK_BYTES,
    disableAutoFetch: true,
    disableStream: true,
    // An image larger than an upload may be is left out unread, as pdf.js would leave out a broken one.
    maxImageSize: MAX_IMAGE_PIXELS,
    // Text extraction needs no font rendering, no eval'd glyph code and no console chatter.
    disableFontFace: true,
    isEvalSupported: false,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy();
    throw classifyOpenError(error);
  }
}

async function readRange(file: FileHandle, begin: number, end: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(end - begin);
  const { bytesRead } = await file.read(buffer, 0, buffer.length, begin);
  return buffer.subarray(0, bytesRead);
}

/**
 * pdf.js reconstructs a damaged cross-reference table by scanning, so a truncated upload would
 * "succeed" with whatever pages happen to be complete. A missing %%EOF is the reliable sign of a
 * cut-off file: better to fail it than to index half a document silently.
 */
async function assertNotTruncated(file: FileHandle, size: number): Promise<void> {
  const tail = Buffer.from(await readRange(file, Math.max(0, size - EOF_WINDOW_BYTES), size));
  if (!tail.includes('%%EOF'))
    throw permanentError('CORRUPT_DOCUMENT', 'the PDF is truncated (no %%EOF marker at its end)');
}

function classifyOpenError(error: unknown): Error {
  const name = (error as { name?: string } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException')
    return permanentError('ENCRYPTED_DOCUMENT', `the PDF is password-protected: ${message}`, error);
  if (name === 'InvalidPDFException' || name === 'FormatError') {
    return permanentError('CORRUPT_DOCUMENT', `the PDF structure cannot be read: ${message}`, error);
  }
  return error instanceof Error ? error : new Error(message);
}
