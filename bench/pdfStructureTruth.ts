import * as cheerio from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { normalizeText, normalizeWords } from './pdfStructureText';

/**
 * What a page's PDF should give back, read from its HTML. Renderers print the whole page, so the
 * truth is the whole body less what is not content or not printed: scripts and styles, elements
 * hidden inline (display:none, the hidden attribute), and the family's page chrome (navigation
 * bars, sidebars, permalink marks; pdfStructureCorpus.ts lists it). Anything else printed counts.
 */
export interface Truth {
  /** Each table's rows, each row its non-empty cells (normalized text). */
  tables: string[][][];
  /** Each list item's leading text (up to its first nested block), normalized. */
  listItems: string[];
  /** Non-empty lines of <pre>, whitespace collapsed. */
  codeLines: string[];
  headings: { level: number; text: string }[];
  /** Normalized words of the printed body, in order. */
  words: string[];
  /** Paragraph-like blocks in document order (normalized), for reading order. */
  blocks: string[];
}

const HIDDEN = 'script, style, noscript, template, [hidden], [style*="display:none"], [style*="display: none"]';
/** Elements whose text starts and ends a line, so adjacent blocks' words do not run together. */
const BLOCK_TAGS = new Set(
  'address article aside blockquote br caption dd div dl dt figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table tbody td tfoot th thead tr ul'.split(
    ' ',
  ),
);
const READING_BLOCKS = 'p, li, dt, dd, pre, h1, h2, h3, h4, h5, h6, caption';

/**
 * A node's text with `boundary` where a block starts or ends; descendants `skip` accepts are left
 * out. A space by default, so adjacent blocks' words do not run together.
 */
function textOf(node: AnyNode, skip: (element: Element) => boolean = () => false, boundary = ' '): string {
  if (node.type === 'text') return node.data;
  if (node.type !== 'tag' && node.type !== 'root') return '';
  const inner = node.children
    .map((child) => (child.type === 'tag' && skip(child) ? boundary : textOf(child, skip, boundary)))
    .join('');
  return node.type === 'tag' && BLOCK_TAGS.has(node.name) ? `${boundary}${inner}${boundary}` : inner;
}

/**
 * A list item's leading text: up to its first nested block (a step's title before its
 * paragraphs, say). That is the line its marker starts in print, whatever follows it.
 */
function leadingText(item: Element): string {
  const isList = (element: Element) => element.name === 'ul' || element.name === 'ol';
  const BREAK = '\u0001';
  const parts = textOf(item, isList, BREAK).split(BREAK).map(normalizeText);
  return parts.find((part) => part !== '') ?? '';
}

/**
 * A table counts when it is a grid of content: not inside another table, holding no table (both
 * are page layout), and with at least two rows and a row of two cells.
 */
function contentTables($: cheerio.CheerioAPI): string[][][] {
  const tables: string[][][] = [];
  $('table').each((_, table) => {
    if ($(table).parents('table').length > 0 || $(table).find('table').length > 0) return;
    const rows = $(table)
      .find('tr')
      .toArray()
      .map((row) =>
        $(row)
          .children('th, td')
          .toArray()
          .map((cell) => normalizeText(textOf(cell)))
          .filter((cell) => cell !== ''),
      )
      .filter((row) => row.length > 0);
    if (rows.length >= 2 && rows.some((row) => row.length >= 2)) tables.push(rows);
  });
  return tables;
}

export function truthOf(html: string, chrome: readonly string[]): Truth {
  const $ = cheerio.load(html);
  $(HIDDEN).remove();
  if (chrome.length > 0) $(chrome.join(', ')).remove();
  const body = $('body').get(0) ?? $.root().get(0)!;
  const listItems = $('li')
    .toArray()
    .map(leadingText)
    .filter((text) => text !== '');
  const codeLines = $('pre')
    .toArray()
    .flatMap((pre) => $(pre).text().split('\n'))
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '');
  const headings = $('h1, h2, h3, h4, h5, h6')
    .toArray()
    .map((heading) => ({ level: Number(heading.name.slice(1)), text: normalizeText(textOf(heading)) }))
    .filter((heading) => heading.text !== '');
  const isReadingBlock = (element: Element) => $(element).is(READING_BLOCKS);
  const blocks = $(READING_BLOCKS)
    .toArray()
    .map((block) => normalizeText(textOf(block, isReadingBlock)))
    .filter((text) => text !== '');
  return {
    tables: contentTables($),
    listItems,
    codeLines,
    headings,
    words: normalizeWords(textOf(body)),
    blocks,
  };
}
