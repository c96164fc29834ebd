import { simpleTable } from '../markdownTableRule';
import { preformattedBlock } from '../preCodeRule';
import { mergeAdjacentCode } from './adjacentCode';
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

/** `wordEdges`: the parent's own (see Place); its first and last child inherit them. */
function renderChildren(parent: HtmlElement, inCode: boolean, wordEdges = 0): Piece {
  const joiner = new PieceJoiner();
  if (!inCode) parent.children = mergeAdjacentCode(parent.children);
  const { children } = parent;
  const last = children.length - 1;
  let position = 0;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.kind === 'text') {
      joiner.addText(inCode ? child.text : escapeMarkdown(child.text));
      continue;
    }
    const left = i === 0 ? wordEdges & WORD_LEFT : touchesWord(children[i - 1]!, 'left') ? WORD_LEFT : 0;
    const right = i === last ? wordEdges & WORD_RIGHT : touchesWord(children[i + 1]!, 'right') ? WORD_RIGHT : 0;
    joiner.add(renderElement(child, { parent, index: i, position: position++, wordEdges: left | right }, inCode));
  }
  return joiner.piece();
}

/**
 * Where an element sits: its parent, its index among the parent's nodes and among its elements,
 * and whether the text beside it runs into it with a letter or digit on its left (WORD_LEFT) or
 * right (WORD_RIGHT), seen through inline wrappers (`<span><em>3.14</em></span>159`).
 */
interface Place {
  parent: HtmlElement;
  index: number;
  position: number;
  wordEdges: number;
}

const WORD_LEFT = 1;
const WORD_RIGHT = 2;

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
  const content = renderChildren(element, inCode || name === 'code', block ? 0 : place.wordEdges);
  // A code span's text is literal: markup inside it would show as `_`, `**` or backticks, and a
  // nested <code> would split its words (`-I<em><code>dir</code></em>` is `-Idir`).
  if (inCode && !block) return content;
  return block ? blockRule(element, place, content) : inlineRule(element, place, content);
}

function blockRule(element: HtmlElement, place: Place, content: Piece): Piece {
  const { name } = element;
  if (name.length === 2 && name[0] === 'h' && name[1]! >= '1' && name[1]! <= '6') {
    return pieceOf(`\n\n${'#'.repeat(Number(name[1]))} ${textOf(content)}\n\n`);
  }
  if (name === 'blockquote') return wrap({ lead: 0, body: content.body.replace(/^/gm, '> '), trail: 0 }, 2, 2);
  if (name === 'ul' || name === 'ol')
    return place.parent.name === 'li' && lastElementChild(place.parent) === element
      ? wrap(content, 1, 0)
      : wrap(content, 2, 2);
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
  return {
    lead: 0,
    body: `${prefix}${body}${isParagraph ? indent : ''}`,
    trail: index + 1 < parent.children.length ? 1 : 0,
  };
}

function inlineRule(element: HtmlElement, { parent, index, wordEdges }: Place, content: Piece): Piece {
  const { name } = element;
  const replace = REPLACEMENTS.get(name) ?? (name === 'a' && element.attrs.get('href') ? linkMarkdown : undefined);
  const edges = edgeSpaces(
    content,
    flanked(parent.children[index - 1], 'left'),
    flanked(parent.children[index + 1], 'right'),
  );
  if (!replace && edges.leading === '' && edges.trailing === '') return content;
  const text = edges.leading !== '' || edges.trailing !== '' ? textOf(content).trim() : textOf(content);
  let replaced = replace ? replace(text, element) : text;
  // `_` opens or closes no emphasis inside a word (CommonMark 6.2): `<em>N</em>th` would show "_N_th".
  const inWord =
    (edges.leading === '' && (wordEdges & WORD_LEFT) !== 0) ||
    (edges.trailing === '' && (wordEdges & WORD_RIGHT) !== 0);
  if (inWord && replaced !== '' && EMPHASIS.has(name)) {
    replaced = `*${replaced.slice(1, -1)}*`;
  }
  return pieceOf(`${edges.leading}${replaced}${edges.trailing}`);
}

const EMPHASIS = new Set(['em', 'i']);
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** The text beside an element runs into it with a letter or digit. */
function touchesWord(sibling: HtmlNode, side: 'left' | 'right'): boolean {
  if (sibling.kind !== 'text' || sibling.text === '') return false;
  const char = side === 'left' ? sibling.text[sibling.text.length - 1]! : sibling.text[0]!;
  const code = char.charCodeAt(0);
  if (code < 128) return (code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122);
  return WORD_CHARACTER.test(char);
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
