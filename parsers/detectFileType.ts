import path from 'node:path';
import { permanentError } from '../contracts/sluiceError';
import { sniffEncoding } from './decodeText';
import { detectBinaryKind } from './fileSignatures';

export type SourceFileType = 'md' | 'txt' | 'html';

const SUPPORTED = 'supported types are markdown, plain text and HTML';

const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd']);
const HTML_EXTENSIONS = new Set(['.html', '.htm', '.xhtml']);

/**
 * An HTML *document* announces itself in its first tag: a doctype or an html/head/body tag,
 * possibly after whitespace, comments or an XML declaration. Text that merely mentions a tag
 * further down (a README with an HTML snippet) is not matched.
 */
const HTML_DOCUMENT_START = /^(?:\s|<!--[\s\S]*?-->|<\?xml[^>]*\?>)*<(?:!doctype\s+html|html|head|body)[\s>/]/i;

/**
 * Other C0 controls are legitimate in the odd text file (form feeds, ANSI colour escapes in logs),
 * so only a noticeable share of them marks the content as binary.
 */
const MAX_CONTROL_CHAR_RATIO = 0.05;

/**
 * Decides the real type of an upload from its first bytes, using the file name only to choose
 * between text flavours. Binary formats win over any extension.
 */
export function detectFileType(head: Buffer, fileName: string): SourceFileType {
  if (head.length === 0) throw permanentError('EMPTY_DOCUMENT', `${fileName} is empty`);

  const binary = detectBinaryKind(head);
  if (binary) throw permanentError('UNSUPPORTED_FILE_TYPE', `${fileName}: detected ${binary.label}; ${SUPPORTED}`);

  const text = decodeHead(head);
  if (text === null || looksBinary(text)) {
    throw permanentError('UNSUPPORTED_FILE_TYPE', `${fileName}: content is binary or not valid UTF-8/UTF-16; ${SUPPORTED}`);
  }

  const extension = path.extname(fileName).toLowerCase();
  if (HTML_EXTENSIONS.has(extension)) return 'html';
  // Markdown may embed raw HTML, and is passed through untouched, so its extension is trusted.
  if (MARKDOWN_EXTENSIONS.has(extension)) return 'md';
  return HTML_DOCUMENT_START.test(text) ? 'html' : 'txt';
}

/** Returns null when the head is not valid text in the encoding its BOM (or its absence) implies. */
function decodeHead(head: Buffer): string | null {
  const encoding = sniffEncoding(head);
  try {
    // stream: true tolerates the multi-byte character the head's cut-off may have split.
    return new TextDecoder(encoding, { fatal: true }).decode(head, { stream: true });
  } catch {
    return null;
  }
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
