import { simpleTable } from '../markdownTableRule';
import { preformattedBlock } from '../preCodeRule';
import { MARKDOWN_BLOCKS, type HtmlElement, type HtmlNode } from './htmlTree';
import { escapeMarkdown } from './markdownEscape';
import { EMPTY, PieceJoiner, pieceOf, textOf, wrap, type Piece } from './markdownPiece';
import { codeSpan, edgeSpaces, imageMarkdown, linkMarkdown } from './inlineRules';

/** Never content: the head's text is the page title, which htmlToMarkdown handles. */
const SKIPPED = new Set(['head', 'title']);

/**
 * Turndown's markdown (ATX headings, `-` bullets, fenced code, `---` rules, inline links) from
 * the tree in one walk, with pipe tables and whole-<pre> fences. The recursion is as deep as the
 * tree, which the tree builder caps at MAX_HTML_DEPTH.
 */
export function renderMarkdown(root: HtmlElement): string {
  return finish(textOf(renderChildren(root, false)));
}

/** Turndown's last step: no line breaks before, no whitespace after. */
function finish(markdown: string): string {
  return markdown.replace(/^[\t\r\n]+/, '').trimEnd();
}

function renderChildren(parent: HtmlElement, inCode: boolean): Piece {
  const joiner = new PieceJoiner();
  const { children } = parent;
  let position = 0;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.kind === 'text') joiner.addText(inCode ? child.text : escapeMarkdown(child.text));
    else joiner.add(renderElement(child, { parent, index: i, position: position++ }, inCode));
  }
  return joiner.piece();
}

/** Where an element sits: its parent, its index among the parent's nodes and among its elements. */
interface Place {
  parent: HtmlElement;
  index: number;
  position: number;
}

function renderElement(element: HtmlElement, place: Place, inCode: boolean): Piece {
  const { name } = element;
  const block = MARKDOWN_BLOCKS.has(name);
  if (SKIPPED.has(name)) return EMPTY;
  if (!element.filled) return block ? { lead: 2, body: '', trail: 0 } : EMPTY;
  if (name === 'pre') return preformattedBlock(element);
  if (name === 'br') return { lead: 0, body: '  ', trail: 1 };
  if (name === 'hr') return { lead: 2, body: '---', trail: 2 };
  if (name === 'table') {
    const table = simpleTable(element, (cell) => finish(textOf(renderChildren(cell, inCode))));
    if (table) return table;
  }
  const content = renderChildren(element, inCode || name === 'code');
  return block ? blockRule(element, place, content) : inlineRule(element, place, content);
}

function blockRule(element: HtmlElement, place: Place, content: Piece): Piece {
  const { name } = element;
  if (name.length === 2 && name[0] === 'h' && name[1]! >= '1' && name[1]! <= '6') {
    return pieceOf(`\n\n${'#'.repeat(Number(name[1]))} ${textOf(content)}\n\n`);
  }
  if (name === 'blockquote') return wrap({ lead: 0, body: content.body.replace(/^/gm, '> '), trail: 0 }, 2, 2);
  if (name === 'ul' || name === 'ol') return place.parent.name === 'li' && lastElementChild(place.parent) === element ? wrap(content, 1, 0) : wrap(content, 2, 2);
  if (name === 'li') return listItem(place, content);
  return wrap(content, 2, 2);
}

function listItem({ parent, index, position }: Place, content: Piece): Piece {
  let prefix = '-   ';
  if (parent.name === 'ol') {
    const start = parent.attrs.get('start');
    prefix = `${start ? Number(start) + position : position + 1}.  `;
  }
  const indent = `\n${' '.repeat(prefix.length)}`;
  const isParagraph = content.trail > 0 || (content.body === '' && content.lead > 0);
  const body = content.body.includes('\n') ? content.body.replace(/\n/g, indent) : content.body;
  return { lead: 0, body: `${prefix}${body}${isParagraph ? indent : ''}`, trail: index + 1 < parent.children.length ? 1 : 0 };
}

function inlineRule(element: HtmlElement, { parent, index }: Place, content: Piece): Piece {
  const { name } = element;
  const replace = REPLACEMENTS.get(name) ?? (name === 'a' && element.attrs.get('href') ? linkMarkdown : undefined);
  const edges = edgeSpaces(content, flanked(parent.children[index - 1], 'left'), flanked(parent.children[index + 1], 'right'));
  if (!replace && edges.leading === '' && edges.trailing === '') return content;
  const text = edges.leading !== '' || edges.trailing !== '' ? textOf(content).trim() : textOf(content);
  const replaced = replace ? replace(text, element) : text;
  return pieceOf(`${edges.leading}${replaced}${edges.trailing}`);
}

const REPLACEMENTS = new Map<string, (content: string, element: HtmlElement) => string>([
  ['em', (content) => (content.trim() ? `_${content}_` : '')],
  ['i', (content) => (content.trim() ? `_${content}_` : '')],
  ['strong', (content) => (content.trim() ? `**${content}**` : '')],
  ['b', (content) => (content.trim() ? `**${content}**` : '')],
  ['code', codeSpan],
  ['img', (_content, element) => imageMarkdown(element)],
]);

/** Turndown drops a space at an element's edge when the text beside it already has one. */
function flanked(sibling: HtmlNode | undefined, side: 'left' | 'right'): boolean {
  if (sibling?.kind !== 'text') return false;
  return side === 'left' ? sibling.text.endsWith(' ') : sibling.text.startsWith(' ');
}

function lastElementChild(parent: HtmlElement): HtmlElement | undefined {
  for (let i = parent.children.length - 1; i >= 0; i--) {
    const child = parent.children[i]!;
    if (child.kind === 'element') return child;
  }
  return undefined;
}
