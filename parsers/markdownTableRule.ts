import type TurndownService from 'turndown';
import { tableCell, toPipeTable } from './markdownTable';

/** The slice of the DOM (domino, under turndown) that the table rule reads. */
interface ElementLike {
  nodeName: string;
  readonly childNodes: ArrayLike<ElementLike>;
  getAttribute(name: string): string | null;
  querySelector(selector: string): ElementLike | null;
  querySelectorAll(selector: string): ArrayLike<ElementLike>;
  readonly textContent: string | null;
}

const isCell = (node: ElementLike): boolean => node.nodeName === 'TD' || node.nodeName === 'TH';

/**
 * Turndown has no GFM tables, and its default flattens a table into a run of cell paragraphs that
 * loses which value belongs to which column. Simple tables (no nesting, no merged cells) become
 * pipe tables; anything else keeps turndown's flattened text, which is at least searchable.
 */
export function addMarkdownTableRule(service: TurndownService): void {
  service.addRule('simpleTable', {
    filter: (node) => node.nodeName === 'TABLE' && isSimpleTable(node as unknown as ElementLike),
    replacement: (_content, node) => {
      const table = node as unknown as ElementLike;
      // A simple table has no nested table, so a row's cells are its children.
      const rows = Array.from(table.querySelectorAll('tr'), (row) =>
        Array.from(row.childNodes)
          .filter(isCell)
          .map((cell) => cellToMarkdown(service, cell)),
      ).filter((cells) => cells.length > 0);
      if (rows.length === 0) return '';
      const caption = table.querySelector('caption')?.textContent?.trim();
      return `\n\n${caption ? `${caption}\n\n` : ''}${toPipeTable(rows)}\n\n`;
    },
  });
}

/**
 * One selector at a time: domino answers a selector list ('th, td') by checking each match of the
 * second selector against every match so far, which is quadratic in the number of cells.
 */
function isSimpleTable(table: ElementLike): boolean {
  if (table.querySelector('table')) return false;
  return ['th', 'td'].every((tag) =>
    Array.from(table.querySelectorAll(tag)).every((cell) => spanOf(cell, 'colspan') === 1 && spanOf(cell, 'rowspan') === 1),
  );
}

function spanOf(cell: ElementLike, attribute: 'colspan' | 'rowspan'): number {
  const value = Number.parseInt(cell.getAttribute(attribute) ?? '1', 10);
  return Number.isNaN(value) ? 1 : value;
}

function cellToMarkdown(service: TurndownService, cell: ElementLike): string {
  return tableCell(service.turndown(cell as unknown as TurndownService.Node));
}
