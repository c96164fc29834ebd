import type { HtmlElement } from './htmlTree';
import { escapeMarkdown } from './markdownEscape';
import type { Piece } from './markdownPiece';

/**
 * Whitespace at the edges of an inline element's text, which turndown moves outside its markup
 * (`_ b_` would not be emphasis); the ASCII part is dropped where the text beside already has a
 * space. A line break (a <br>, a block inside) ends the edge: it is markup, not text.
 */
export function edgeSpaces(
  content: Piece,
  leftFlanked: boolean,
  rightFlanked: boolean,
): { leading: string; trailing: string } {
  const { body } = content;
  let leading = '';
  let trailing = '';
  let start = 0;
  if (content.lead === 0) {
    let ascii = 0;
    while (ascii < body.length && isAsciiSpace(body.charCodeAt(ascii))) ascii++;
    start = ascii;
    while (start < body.length && isSpace(body, start)) start++;
    leading = body.slice(leftFlanked && ascii > 0 && start < body.length ? ascii : 0, start);
  }
  if (content.trail === 0 && start < body.length) {
    let ascii = body.length;
    while (ascii > start && isAsciiSpace(body.charCodeAt(ascii - 1))) ascii--;
    let end = ascii;
    while (end > start && isSpace(body, end - 1)) end--;
    trailing = body.slice(end, rightFlanked && ascii < body.length ? ascii : body.length);
  }
  return { leading, trailing };
}

const isAsciiSpace = (code: number): boolean => code === 32 || code === 9 || code === 13;
/** JavaScript's \s but the line break; ASCII answered without a regex. */
function isSpace(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 128) return code === 32 || (code >= 9 && code <= 13 && code !== 10);
  return /\s/.test(text[index]!);
}

/** Turndown's inline code: a delimiter longer than every backtick run inside, padded where the code starts or ends with one. */
export function codeSpan(content: string): string {
  if (!content) return '';
  const code = content.replace(/\r?\n|\r/g, ' ');
  const runs = new Set<number>();
  let run = 0;
  for (let i = 0; i <= code.length; i++) {
    if (i < code.length && code.charCodeAt(i) === 96) run++;
    else if (run > 0) {
      runs.add(run);
      run = 0;
    }
  }
  let length = 1;
  while (runs.has(length)) length++;
  if (length >= 3) return htmlCode(code);
  const delimiter = '`'.repeat(length);
  const padded =
    code.startsWith('`') || code.endsWith('`') || (code.startsWith(' ') && code.endsWith(' ') && /[^ ]/.test(code));
  const space = padded ? ' ' : '';
  return `${delimiter}${space}${code}${space}${delimiter}`;
}

/**
 * Code holding both a single and a double backtick run would need a ``` delimiter, and a line
 * that starts with one reads as a fence (to CommonMark when no backtick follows in the line, to
 * the chunker always) and swallows what follows: such code stays an inline HTML <code> element,
 * its text escaped for HTML and for markdown (inline HTML's content is markdown).
 */
function htmlCode(code: string): string {
  const html = code.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<code>${escapeMarkdown(html, false)}</code>`;
}

export function linkMarkdown(content: string, link: HtmlElement): string {
  return `[${content}](${linkDestination(link.attrs.get('href') ?? '')}${titlePart(link)})`;
}

export function imageMarkdown(image: HtmlElement): string {
  const source = image.attrs.get('src');
  if (!source) return '';
  const alt = escapeMarkdown(cleanAttribute(image.attrs.get('alt')), false);
  return `![${alt}](${linkDestination(source)}${titlePart(image)})`;
}

function linkDestination(destination: string): string {
  const escaped = destination.replace(/([<>()])/g, '\\$1');
  return escaped.includes(' ') ? `<${escaped}>` : escaped;
}

function titlePart(element: HtmlElement): string {
  const title = cleanAttribute(element.attrs.get('title'));
  return title ? ` "${title.replace(/"/g, '\\"')}"` : '';
}

/** Blank lines inside an attribute would end the markdown construct around it. */
function cleanAttribute(attribute: string | undefined): string {
  return attribute ? attribute.replace(/\n\s*/g, '\n') : '';
}
