import type { OcrLine } from '../ocr/readingOrder';
import type { PdfLine } from './pdf/pdfLine';

/**
 * OCR lines as the PDF writer's lines, so paragraphs, lists and headings come out of a scanned
 * page as they do from a typeset one: pixel boxes become PDF units (`scale` pixels a unit, y
 * upwards from the bottom of a page `pageHeight` units high). The writer sizes headings by font
 * size; a detected box is about 1.25 times its text's size, so that is taken off.
 */
export function ocrToPdfLines(lines: readonly OcrLine[], scale: number, pageHeight: number): PdfLine[] {
  return lines.map((line) => ({
    text: line.text,
    x: line.left / scale,
    y: pageHeight - line.bottom / scale,
    size: (line.bottom - line.top) / scale / 1.25,
    mono: false,
  }));
}
