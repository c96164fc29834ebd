import { decodeText } from './decodeText';

/**
 * A plain-text line the chunker would read as an ATX heading. Plain text has no headings, so a
 * line like "# TODO" or "#1 priority" must not start a section; everything else stays as written.
 */
const HEADING_LIKE_LINE = /^( {0,3})(#{1,6})(?=[ \t]|$)/gm;

/** Plain text (UTF-8 with or without BOM, or UTF-16 with BOM) to markdown that keeps its paragraphs. */
export function textToMarkdown(bytes: Uint8Array): string {
  return plainTextToMarkdown(decodeText(bytes));
}

function plainTextToMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .replace(HEADING_LIKE_LINE, '$1\\$2')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
