import { decodeDetected } from './textEncoding';

/**
 * A plain-text line the chunker would read as an ATX heading. Plain text has no headings, so a
 * line like "# TODO" or "#1 priority" must not start a section; everything else stays as written.
 * Anchored and bounded, so a line costs at most ten characters of matching.
 */
const HEADING_LIKE_LINE = /^( {0,3})(#{1,6})(?=[ \t]|$)/;

const LINE_BREAK = /\r\n?|\n/;

/** Plain text in any detected encoding (UTF-8, UTF-16, GB18030...) to markdown that keeps its paragraphs. */
export function textToMarkdown(bytes: Uint8Array): string {
  return plainTextToMarkdown(decodeDetected(bytes));
}

/**
 * Line by line: trailing blanks dropped, heading marks escaped, runs of empty lines cut to one.
 * A loop, because `/[ \t]+$/gm` restarts its scan of a blank run at every one of its characters.
 */
function plainTextToMarkdown(text: string): string {
  const lines: string[] = [];
  let emptyBefore = false;
  for (const raw of text.split(LINE_BREAK)) {
    const line = trimTrailingBlanks(raw);
    if (line === '' && emptyBefore) continue;
    emptyBefore = line === '';
    lines.push(line.replace(HEADING_LIKE_LINE, '$1\\$2'));
  }
  return lines.join('\n').trim();
}

function trimTrailingBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return end === line.length ? line : line.slice(0, end);
}
