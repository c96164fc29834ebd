import { readFile } from 'node:fs/promises';
import { ocrMarker } from '../../contracts/ocrMarkers';
import type { DocumentOcr } from '../documentOcr';
import type { MarkdownBudget } from '../markdownBudget';
import { ocrToPdfLines } from '../ocrLines';
import { buildLayoutProfile } from '../pdf/layoutProfile';
import { PdfMarkdownWriter } from '../pdf/markdownWriter';
import type { PdfLine } from '../pdf/pdfLine';
import { imageFrames, type ImageFormat } from './decodeImage';

/**
 * An image upload (a photographed or scanned page, a screenshot) to markdown by OCR: each frame
 * is read, its lines laid out by the PDF writer (paragraphs, lists, headings by size) as a page
 * would be, and marked as OCR'd. Frames are read one at a time; only their lines are kept.
 */
export async function imageToMarkdown(
  filePath: string,
  format: ImageFormat,
  ocr: DocumentOcr,
  budget: MarkdownBudget,
): Promise<string> {
  const bytes = await readFile(filePath);
  const pages: { lines: PdfLine[]; confidence: number }[] = [];
  let frame = 0;
  for await (const image of imageFrames(bytes, format)) {
    frame++;
    const result = await ocr.read(frame, 'image', async () => image);
    // One pixel a unit: the writer compares sizes with each other, not with points.
    const lines = ocrToPdfLines(result.lines, 1, image.height);
    for (const line of lines) budget.add(line.text, 1);
    pages.push({ lines, confidence: result.confidence });
  }
  const writer = new PdfMarkdownWriter(buildLayoutProfile(pages.map((page) => page.lines)));
  for (const [i, page] of pages.entries()) {
    if (page.lines.length === 0) continue;
    writer.addMarker(ocrMarker(i + 1, page.confidence));
    writer.addPage(page.lines);
  }
  return writer.finish();
}
