import { permanentError } from '../../contracts/sluiceError';
import type { MarkdownBudget } from '../markdownBudget';

/**
 * Empty cells a workbook may need to put its values under their columns: a fixed allowance plus a
 * share per value. A sparse sheet (one value in column XFD on every row) would otherwise turn a
 * few bytes per row into thousands of table cells, a blow-up of the input rather than its text.
 */
const ALLOWANCE_CELLS = 1_000_000;
const CELLS_PER_VALUE = 64;
/**
 * Characters of laid-out cell text. A shared string is stored once and may be referenced by any
 * number of cells, each reference a few bytes: the text, not the archive, would grow without end.
 * Kept well under the longest string V8 can build (about 2^29 characters).
 */
const MAX_TEXT_CHARS = 256 * 1024 * 1024;

/** What laying out a workbook's sheets as pipe tables may cost, in proportion to what it holds. */
export class SheetLayoutBudget {
  private values = 0;
  private cells = 0;
  private chars = 0;

  /** The document's markdown budget: every reference to a shared string is written out again. */
  constructor(private readonly markdown: MarkdownBudget) {}

  /** A value placed in a cell: its text, and the separator before it. */
  addValue(part: string, text: string): void {
    this.values++;
    this.chars += text.length + 3;
    this.markdown.add(text, 3);
    if (this.chars > MAX_TEXT_CHARS) {
      throw permanentError(
        'FILE_TOO_LARGE',
        `sheet ${part}: the cells repeat more than ${MAX_TEXT_CHARS} characters of text`,
      );
    }
  }

  /** A row laid out with `width` cells, empty ones included. */
  addRow(part: string, width: number): void {
    this.cells += width;
    if (this.cells > ALLOWANCE_CELLS + CELLS_PER_VALUE * this.values) {
      throw permanentError(
        'FILE_TOO_LARGE',
        `sheet ${part} spreads ${this.values} values over ${this.cells}+ table cells: too sparse to lay out as a table`,
      );
    }
  }
}
