import { decodeDetected } from './textEncoding';

/**
 * A plain-text line the chunker would read as an ATX heading. Plain text has no headings, so a
 * line like "# TODO" or "#1 priority" must not start a section; everything else stays as written.
 */
const HEADING_LIKE_LINE = /^( {0,3})(#{1,6})(?=[ \t]|$)/gm;

/** Plain text in any detected encoding (UTF-8, UTF-16, GB18030...) to markdown that keeps its paragraphs. */
export function textToMarkdown(bytes: Uint8Array): string {
  return plainTextToMarkdown(decodeDetected(bytes));
}

function plainTextToMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(HEADING_LIKE_LINE, '$1\\$2')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
