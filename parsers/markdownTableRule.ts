import { textContent, walkElements, type HtmlElement } from './html/htmlTree';
import type { Piece } from './html/markdownPiece';
import { tableCell, toPipeTable } from './markdownTable';

const isCell = (element: HtmlElement): boolean => element.name === 'td' || element.name === 'th';

/**
 * Simple tables (no nesting, no merged cells) become GFM pipe tables, each cell's markdown on one
 * line; undefined for any other table, which keeps the block-by-block text of its cells (at least
 * searchable) rather than a grid that would put values under the wrong column.
 */
export function simpleTable(table: HtmlElement, cellMarkdown: (cell: HtmlElement) => string): Piece | undefined {
  const rows: HtmlElement[] = [];
  let caption: HtmlElement | undefined;
  let simple = true;
  walkElements(table, (element) => {
    if (
      element.name === 'table' ||
      (isCell(element) && (spanOf(element, 'colspan') !== 1 || spanOf(element, 'rowspan') !== 1))
    )
      simple = false;
    if (element.name === 'tr') rows.push(element);
    if (element.name === 'caption') caption ??= element;
    return simple;
  });
  if (!simple) return undefined;
  // A simple table has no nested table, so a row's cells are its children.
  const cells = rows
    .map((row) =>
      row.children
        .filter((child): child is HtmlElement => child.kind === 'element' && isCell(child))
        .map((cell) => tableCell(cellMarkdown(cell))),
    )
    .filter((row) => row.length > 0);
  if (cells.length === 0) return { lead: 0, body: '', trail: 0 };
  const title = caption ? textContent(caption).trim() : '';
  return { lead: 2, body: `${title ? `${title}\n\n` : ''}${toPipeTable(cells)}`, trail: 2 };
}

function spanOf(cell: HtmlElement, attribute: 'colspan' | 'rowspan'): number {
  const value = Number.parseInt(cell.attrs.get(attribute) ?? '1', 10);
  return Number.isNaN(value) ? 1 : value;
}
