import { readFile, stat } from 'node:fs/promises';
import { permanentError, SluiceError } from '../contracts/sluiceError';
import { sharedOcrEngine } from '../ocr/sharedEngine';
import { csvToMarkdown } from './csvToMarkdown';
import { isImageType, type SourceFileType } from './detectFileType';
import { DocumentOcr, type OcrPageListener, type OcrPageReport } from './documentOcr';
import { htmlToMarkdown } from './htmlToMarkdown';
import { imageToMarkdown } from './image/imageToMarkdown';
import { EmbeddedImages, type EmbeddedImage } from './ooxml/embeddedImages';
import { epubToMarkdown } from './epub/epubToMarkdown';
import { odfToMarkdown } from './odf/odfToMarkdown';
import { jsonToMarkdown } from './jsonToMarkdown';
import type { DocumentMetadata } from '../contracts/documentMetadata';
import { mboxToMarkdown, messageToMarkdown, type ParsedMail } from './mail/emailToMarkdown';
import {
  AttachmentWriter,
  type AttachmentRefusal,
  type AttachmentTarget,
  type MailAttachment,
} from './mail/mailAttachments';
import { rtfToMarkdown } from './rtfToMarkdown';
import { xmlToMarkdown } from './xmlToMarkdown';
import { ooxmlToMarkdown } from './ooxml/ooxmlToMarkdown';
import { MarkdownBudget } from './markdownBudget';
import { markdownLimit, type ParseLimits } from './parseLimits';
import { pdfToMarkdown } from './pdf/pdfToMarkdown';
import { decodeDetected } from './textEncoding';
import { textToMarkdown } from './textToMarkdown';

/**
 * A parse's result: the markdown, the pages OCR read (page order; empty for most documents), the
 * pictures its references name (only when asked to keep them; DOCX and PPTX), and of a mail file
 * its headers as metadata and the attachments written out (only when given a folder for them).
 */
export interface ParsedDocument {
  markdown: string;
  ocrPages: OcrPageReport[];
  images: EmbeddedImage[];
  /** An EML's headers as metadata (mail.*); null for any other type, an MBOX included. */
  mail: DocumentMetadata | null;
  attachments: MailAttachment[];
  attachmentRefusals: AttachmentRefusal[];
}

export interface ParseOptions {
  /** Write a reference where each picture stands and list the pictures (for image descriptions). */
  keepImages?: boolean;
  /** Told as each page's OCR begins (the parse process reports it to the pool: cpuPool/parseChild.ts). */
  onOcrPage?: OcrPageListener;
  /** Write an EML's or MBOX's attachments of a type sluice reads to this folder, to become documents. */
  attachments?: AttachmentTarget;
}

/**
 * Turns a local file into markdown in the calling thread. Read errors are left unclassified on
 * purpose: an I/O failure on the worker's temp file says nothing about the document. Failures of
 * the parsing itself are permanent: the same bytes would fail again. The markdown is capped in
 * proportion to the file (markdownLimit): the compressed formats count it as they write, and the
 * result is weighed once more here, so the cap holds for every format.
 */
export async function convertFile(filePath: string, type: SourceFileType, limits: ParseLimits): Promise<string> {
  return (await parseDocument(filePath, type, limits)).markdown;
}

/** convertFile with the OCR report: what the parse process sends back to CLEANING. */
export async function parseDocument(
  filePath: string,
  type: SourceFileType,
  limits: ParseLimits,
  options: ParseOptions = {},
): Promise<ParsedDocument> {
  const budget = new MarkdownBudget(markdownLimit(limits.markdown, (await stat(filePath)).size));
  const ocr = new DocumentOcr(limits.ocr, sharedOcrEngine, options.onOcrPage);
  const images = new EmbeddedImages(options.keepImages === true);
  const writer = options.attachments && new AttachmentWriter(options.attachments, limits.maxMailAttachments);
  let mail: DocumentMetadata | null = null;
  const markdown = await classified(type, async () => {
    const converted = await convert(filePath, type, limits, budget, ocr, images, writer);
    if (typeof converted === 'string') return converted;
    mail = converted.mail;
    return converted.markdown;
  });
  budget.check(markdown);
  if (markdown.trim() === '') {
    throw permanentError(
      'EMPTY_DOCUMENT',
      isImageType(type) ? `OCR found no text in the ${type} image` : `no text content found in the ${type} file`,
    );
  }
  return {
    markdown,
    ocrPages: [...ocr.pages].sort((a, b) => a.page - b.page),
    images: images.list(),
    mail,
    attachments: writer?.written ?? [],
    attachmentRefusals: writer?.refused ?? [],
  };
}

async function convert(
  filePath: string,
  type: SourceFileType,
  limits: ParseLimits,
  budget: MarkdownBudget,
  ocr: DocumentOcr,
  images: EmbeddedImages,
  attachments: AttachmentWriter | undefined,
): Promise<string | ParsedMail> {
  switch (type) {
    case 'png':
    case 'jpeg':
    case 'webp':
    case 'tiff':
      return imageToMarkdown(filePath, type, ocr, budget);
    case 'pdf':
      return pdfToMarkdown(filePath, undefined, budget, ocr, {
        maxBytes: limits.maxUncompressedBytes,
        perSourceByte: limits.pdfDecodedPerSourceByte,
      });
    case 'docx':
    case 'pptx':
    case 'xlsx':
      return ooxmlToMarkdown(filePath, limits.maxUncompressedBytes, budget, images);
    case 'epub':
      return epubToMarkdown(filePath, limits.maxUncompressedBytes, budget, images);
    case 'rtf':
      return rtfToMarkdown(await readFile(filePath), budget);
    case 'json':
      return jsonToMarkdown(decodeDetected(await readFile(filePath)), budget);
    case 'eml':
      return messageToMarkdown(await readFile(filePath), budget, attachments);
    case 'mbox':
      return mboxToMarkdown(await readFile(filePath), budget, attachments);
    case 'xml':
      return xmlToMarkdown(decodeDetected(await readFile(filePath)), budget);
    case 'odt':
    case 'ods':
    case 'odp':
      return odfToMarkdown(filePath, limits.maxUncompressedBytes, budget);
    case 'csv':
      return csvToMarkdown(await readFile(filePath));
    case 'md':
      return decodeDetected(await readFile(filePath));
    case 'txt':
      return textToMarkdown(await readFile(filePath));
    case 'html':
      return htmlToMarkdown(decodeDetected(await readFile(filePath)));
  }
}

async function classified(type: SourceFileType, parse: () => Promise<string>): Promise<string> {
  try {
    return await parse();
  } catch (error) {
    if (error instanceof SluiceError) throw error;
    if (isIoError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw permanentError('PARSE_ENGINE_FAILED', `${type} parser failed: ${message}`, error);
  }
}

/** Errors of the file system (ENOENT, ENOSPC, EIO...) carry a code starting with E and a syscall. */
function isIoError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}
