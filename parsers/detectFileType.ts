import path from 'node:path';
import { permanentError } from '../contracts/sluiceError';
import { detectBinaryKind } from './fileSignatures';
import { startsAsHtmlDocument } from './htmlDocumentStart';
import { detectEncoding, encodingFromBom } from './textEncoding';

export type SourceFileType =
  | 'md'
  | 'txt'
  | 'html'
  | 'csv'
  | 'pdf'
  | 'docx'
  | 'pptx'
  | 'xlsx'
  | 'epub'
  | 'rtf'
  | 'json'
  | 'eml'
  | 'mbox'
  | 'xml'
  | 'odt'
  | 'ods'
  | 'odp'
  | ImageType;

/** Image uploads, read by OCR (parsers/image/). */
export type ImageType = 'png' | 'jpeg' | 'tiff' | 'webp';
const IMAGE_KINDS: ReadonlySet<string> = new Set<ImageType>(['png', 'jpeg', 'tiff', 'webp']);

export function isImageType(type: SourceFileType): type is ImageType {
  return IMAGE_KINDS.has(type);
}

/** How much of a file's start detectFileType needs: every signature and encoding check fits in it. */
export const DETECTION_HEAD_BYTES = 8192;

const SUPPORTED =
  'supported types are PDF, DOCX, PPTX, XLSX, ODT, ODS, ODP, EPUB, RTF, JSON, XML, EML, MBOX, CSV, HTML, markdown, plain text and PNG, JPEG, TIFF and WebP images';

const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd']);
const HTML_EXTENSIONS = new Set(['.html', '.htm', '.xhtml']);
const CSV_EXTENSIONS = new Set(['.csv', '.tsv']);
const OOXML_BY_EXTENSION: Record<string, SourceFileType> = {
  '.docx': 'docx',
  '.docm': 'docx',
  '.pptx': 'pptx',
  '.pptm': 'pptx',
  '.xlsx': 'xlsx',
  '.xlsm': 'xlsx',
};
const ODF_BY_EXTENSION: Record<string, SourceFileType> = { '.odt': 'odt', '.ods': 'ods', '.odp': 'odp' };
/** Extensions of binary formats: text behind one of them is a damaged or mislabelled upload. */
const BINARY_EXTENSIONS = new Set([
  '.pdf',
  '.doc',
  '.xls',
  '.ppt',
  '.epub',
  '.rtf',
  ...Object.keys(OOXML_BY_EXTENSION),
  ...Object.keys(ODF_BY_EXTENSION),
]);

/**
 * Other C0 controls are legitimate in the odd text file (form feeds, ANSI colour escapes in logs),
 * so only a noticeable share of them marks the content as binary.
 */
const MAX_CONTROL_CHAR_RATIO = 0.05;

/**
 * Decides the real type of an upload from its first bytes. Binary formats win over any extension;
 * the extension only chooses between flavours the bytes cannot tell apart (text kinds, and which
 * Office format a ZIP is, which the OOXML parser checks again from the archive's entries).
 */
export function detectFileType(head: Buffer, fileName: string): SourceFileType {
  if (head.length === 0) throw permanentError('EMPTY_DOCUMENT', `${fileName} is empty`);
  const extension = path.extname(fileName).toLowerCase();

  const binary = detectBinaryKind(head);
  if (binary?.kind === 'pdf') return 'pdf';
  if (binary?.kind === 'rtf') return 'rtf';
  // Scans, photos and screenshots of pages: their text is read by OCR.
  if (binary && IMAGE_KINDS.has(binary.kind)) return binary.kind as ImageType;
  if (binary?.kind === 'zip') return officeFlavour(head, extension, fileName);
  // Word, Excel and PowerPoint store a password-protected OOXML file inside an OLE2 container.
  if (binary?.kind === 'ole2' && OOXML_BY_EXTENSION[extension]) {
    throw permanentError('ENCRYPTED_DOCUMENT', `${fileName}: a password-protected Office document`);
  }
  if (binary?.kind === 'ole2')
    throw permanentError('LEGACY_OFFICE_FORMAT', `${fileName}: ${legacyOfficeKind(head, extension)}`);
  if (binary) throw permanentError('UNSUPPORTED_FILE_TYPE', `${fileName}: detected ${binary.label}; ${SUPPORTED}`);

  const text = decodeHead(head, fileName);
  if (text === null || looksBinary(text)) {
    throw permanentError(
      'UNSUPPORTED_FILE_TYPE',
      `${fileName}: content is binary or in no text encoding we recognise; ${SUPPORTED}`,
    );
  }
  if (BINARY_EXTENSIONS.has(extension)) {
    throw permanentError(
      'UNSUPPORTED_FILE_TYPE',
      `${fileName}: named ${extension} but the content is plain text, not that format`,
    );
  }
  if (HTML_EXTENSIONS.has(extension)) return 'html';
  // Markdown may embed raw HTML, and is passed through untouched, so its extension is trusted.
  if (MARKDOWN_EXTENSIONS.has(extension)) return 'md';
  if (CSV_EXTENSIONS.has(extension)) return 'csv';
  const mail = mailKind(text, extension);
  if (mail) return mail;
  // JSON by its extension, or by a start no prose has: an object whose first member is a string key.
  if (extension === '.json' || /^\uFEFF?\s*\{\s*"/.test(text)) return 'json';
  if (startsAsHtmlDocument(text)) return 'html';
  // XML that is not XHTML: by its extension or its declaration.
  return extension === '.xml' || /^\uFEFF?\s*<\?xml[\s?]/.test(text) ? 'xml' : 'txt';
}

/**
 * EPUB and OpenDocument packages start with an uncompressed `mimetype` entry naming what they are
 * (`application/epub+zip`, `application/vnd.oasis.opendocument.text`…); null when there is none.
 */
function packageMimetype(names: string): SourceFileType | null {
  if (!names.startsWith('mimetype', 30)) return null;
  const declared = names.slice(38, 200);
  if (declared.includes('application/epub+zip')) return 'epub';
  if (declared.includes('application/vnd.oasis.opendocument.text')) return 'odt';
  if (declared.includes('application/vnd.oasis.opendocument.spreadsheet')) return 'ods';
  if (declared.includes('application/vnd.oasis.opendocument.presentation')) return 'odp';
  return null;
}

/**
 * OOXML packages are ZIPs whose first entries usually include the main part's folder name
 * (word/, xl/, ppt/) within the first kilobytes, which covers uploads without an extension; an
 * EPUB says what it is in its first entry.
 */
function officeFlavour(head: Buffer, extension: string, fileName: string): SourceFileType {
  const names = head.toString('latin1');
  const declared = packageMimetype(names);
  if (declared) return declared;
  if (extension === '.epub') return 'epub';
  const byExtension = OOXML_BY_EXTENSION[extension] ?? ODF_BY_EXTENSION[extension];
  if (byExtension) return byExtension;
  if (names.includes('word/')) return 'docx';
  if (names.includes('xl/')) return 'xlsx';
  if (names.includes('ppt/')) return 'pptx';
  throw permanentError(
    'UNSUPPORTED_FILE_TYPE',
    `${fileName}: a ZIP archive that is not a DOCX, PPTX, XLSX, ODT, ODS, ODP or EPUB document; ${SUPPORTED}`,
  );
}

/**
 * Null when the head is no text we can decode. A byte-order mark is a promise: bytes that break
 * it are a damaged file (INVALID_TEXT_ENCODING), not merely an unknown type.
 */
function decodeHead(head: Buffer, fileName: string): string | null {
  const declared = encodingFromBom(head);
  const encoding = detectEncoding(head);
  if (declared && encoding === declared) {
    try {
      // stream: true tolerates the multi-byte character the head's cut-off may have split.
      return new TextDecoder(declared, { fatal: true }).decode(head, { stream: true });
    } catch {
      throw permanentError(
        'INVALID_TEXT_ENCODING',
        `${fileName}: marked as ${declared} by its byte-order mark, but the bytes are not valid ${declared}`,
      );
    }
  }
  return encoding ? new TextDecoder(encoding).decode(head, { stream: true }) : null;
}

function looksBinary(text: string): boolean {
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return true;
    if (code < 0x20 && !isTextControl(code)) controls++;
  }
  return controls > text.length * MAX_CONTROL_CHAR_RATIO;
}

/** Tab, LF, VT, FF, CR and ESC. */
function isTextControl(code: number): boolean {
  return (code >= 0x09 && code <= 0x0d) || code === 0x1b;
}

/** The stream names of the binary Office formats, as OLE2 directory entries write them (UTF-16LE). */
const LEGACY_STREAMS: [string, string][] = [
  ['WordDocument', 'a Word 97–2003 document (DOC); save it as DOCX'],
  ['Workbook', 'an Excel 97–2003 workbook (XLS); save it as XLSX'],
  ['Book', 'an Excel 5 workbook (XLS); save it as XLSX'],
  ['PowerPoint Document', 'a PowerPoint 97–2003 presentation (PPT); save it as PPTX'],
];
const LEGACY_BY_EXTENSION: Record<string, string> = {
  '.doc': 'a Word 97–2003 document (DOC); save it as DOCX',
  '.xls': 'an Excel 97–2003 workbook (XLS); save it as XLSX',
  '.ppt': 'a PowerPoint 97–2003 presentation (PPT); save it as PPTX',
};

/**
 * Which legacy Office format an OLE2 file is: its directory's stream names where the head holds
 * them, else its extension, else all three named.
 */
function legacyOfficeKind(head: Buffer, extension: string): string {
  for (const [stream, kind] of LEGACY_STREAMS) if (head.includes(Buffer.from(`${stream}\0`, 'utf16le'))) return kind;
  return (
    LEGACY_BY_EXTENSION[extension] ??
    'a legacy Office document (Word DOC, Excel XLS or PowerPoint PPT); save it as DOCX, XLSX or PPTX'
  );
}

/** A header line of a message (RFC 5322): a field name, a colon; what mail starts with. */
const HEADER_LINE = /^[A-Za-z][A-Za-z0-9-]{0,60}:/;

/**
 * An email (.eml) or a mailbox (.mbox) by its extension, or by its start: a mailbox's first line is
 * a `From ` separator followed by a header line; a message starts with two header lines.
 */
function mailKind(text: string, extension: string): 'eml' | 'mbox' | null {
  if (extension === '.eml') return 'eml';
  if (extension === '.mbox') return 'mbox';
  const [first = '', second = ''] = text.replace(/^\uFEFF/, '').split('\n', 2);
  if (first.startsWith('From ') && HEADER_LINE.test(second)) return 'mbox';
  return HEADER_LINE.test(first) &&
    HEADER_LINE.test(second) &&
    /^(Return-Path|Received|Delivered-To|From|Message-ID|MIME-Version|Date):/i.test(first)
    ? 'eml'
    : null;
}
