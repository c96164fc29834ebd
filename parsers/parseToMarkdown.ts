import { readFile } from 'node:fs/promises';
import { permanentError, SluiceError } from '../contracts/sluiceError';
import { decodeText } from './decodeText';
import type { SourceFileType } from './detectFileType';
import { htmlToMarkdown } from './htmlToMarkdown';
import { textToMarkdown } from './textToMarkdown';

/**
 * Turns a local copy of a source file into markdown. Read errors are left unclassified on purpose:
 * an I/O failure on the worker's temp file says nothing about the document, so the activity
 * decides whether to retry. Failures of the parsing itself are permanent: the same bytes would
 * fail again.
 */
export async function parseToMarkdown(filePath: string, type: SourceFileType): Promise<string> {
  const bytes = await readFile(filePath);
  const markdown = convert(bytes, type);
  if (markdown.trim() === '') throw permanentError('EMPTY_DOCUMENT', `no text content found in the ${type} file`);
  return markdown;
}

function convert(bytes: Buffer, type: SourceFileType): string {
  try {
    switch (type) {
      case 'md':
        return decodeText(bytes);
      case 'txt':
        return textToMarkdown(bytes);
      case 'html':
        return htmlToMarkdown(decodeText(bytes));
    }
  } catch (error) {
    if (error instanceof SluiceError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw permanentError('PARSE_ENGINE_FAILED', `${type} parser failed: ${message}`, error);
  }
}
