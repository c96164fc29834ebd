import { readFile } from 'node:fs/promises';
import { convertFile } from '../parsers/convertFile';
import { DEFAULT_PARSE_LIMITS } from '../parsers/parseLimits';

export type Side = 'sluice' | 'langchain';
export type DocKind = 'html' | 'pdf';

/**
 * One document through each side's parse stage, in the calling thread. sluice: convertFile, what
 * the CPU pool runs for CLEANING. LangChain.js: the two classes a LangChain user picks, reduced to
 * the library calls they make, because @langchain/community cannot join this repo's lockfile
 * (its optional peer @browserbasehq/stagehand wants zod 3, the repo pins zod 4, and `npm ci`
 * refuses the lockfile --legacy-peer-deps writes):
 * - PDFLoader (splitPages: false) with pdf-parse v2: `new PDFParse({data})`, getText() and
 *   getInfo(), the pages' texts joined by a blank line;
 * - HtmlToTextTransformer with default options: `htmlToText(html, {})`.
 */
export async function parseDocument(side: Side, kind: DocKind, file: string): Promise<string> {
  if (side === 'sluice') return convertFile(file, kind, DEFAULT_PARSE_LIMITS);
  const bytes = await readFile(file);
  // Loaded only on this side: pdf-parse's bundled pdf.js replaces Array.prototype.push with a slower
  // polyfill for the whole process, which would slow the sluice side's process too. The warm-up
  // round pays for the import.
  if (kind === 'html') return (await import('html-to-text')).htmlToText(bytes.toString('utf8'), {});
  const { PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  try {
    const text = await parser.getText();
    await parser.getInfo();
    return text.pages
      .filter((page) => page.text.trim() !== '')
      .map((page) => page.text)
      .join('\n\n');
  } finally {
    await parser.destroy();
  }
}
