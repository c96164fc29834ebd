import { permanentError } from '../../contracts/sluiceError';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from '../markdownBudget';
import { docxToMarkdown } from './docxToMarkdown';
import { NO_IMAGES, type EmbeddedImages } from './embeddedImages';
import { assertNestedArchivesFit } from './nestedArchives';
import { pptxToMarkdown } from './pptxToMarkdown';
import { xlsxToMarkdown } from './xlsxToMarkdown';
import { ZipArchive } from './zipArchive';

/**
 * DOCX, PPTX and XLSX are ZIP packages; the main part present decides the format, whatever the
 * file was called (a spreadsheet renamed .docx is still read as a spreadsheet).
 */
export async function ooxmlToMarkdown(
  filePath: string,
  maxUncompressedBytes: number,
  budget: MarkdownBudget = UNLIMITED_MARKDOWN(),
  images: EmbeddedImages = NO_IMAGES(),
): Promise<string> {
  const archive = await ZipArchive.open(filePath, maxUncompressedBytes);
  try {
    await assertNestedArchivesFit(archive, maxUncompressedBytes);
    if (archive.has('word/document.xml')) return await docxToMarkdown(archive, budget, images);
    if (archive.has('ppt/presentation.xml')) return await pptxToMarkdown(archive, budget, images);
    if (archive.has('xl/workbook.xml')) return await xlsxToMarkdown(archive, budget);
    throw permanentError('UNSUPPORTED_FILE_TYPE', 'the ZIP archive holds no DOCX, PPTX or XLSX main part');
  } finally {
    archive.close();
  }
}
