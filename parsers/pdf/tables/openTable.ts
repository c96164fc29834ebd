import { tableCell, toPipeTable } from '../../markdownTable';
import { cleanPdfText } from '../cleanText';
import type { PdfTable } from './pdfTable';

/** Column edges of a table continued on the next page may move this much (PDF units). */
const SAME_COLUMN = 4;

/**
 * The table last written, held open while nothing else follows it: a table at the top of the
 * next page with the same columns continues it, and its repeated header row is dropped.
 */
export class OpenTable {
  private readonly rows: string[][];
  private readonly columns: number[];
  readonly page: number;
  private lastPage: number;

  constructor(table: PdfTable, page: number) {
    this.rows = [...table.rows];
    this.columns = table.columns;
    this.page = page;
    this.lastPage = page;
  }

  /**
   * Appends `next` when it continues this table on a later page. Only a table that starts its
   * page gets here: any other block before it has already closed this one.
   */
  continueWith(next: PdfTable, page: number): boolean {
    if (page <= this.lastPage) return false;
    if (next.columns.length !== this.columns.length) return false;
    if (next.columns.some((x, i) => Math.abs(x - this.columns[i]!) > SAME_COLUMN)) return false;
    const header = this.rows[0] ?? [];
    const repeatsHeader = next.rows[0]?.every((cell, i) => cell === header[i]) ?? false;
    this.lastPage = page;
    for (const row of repeatsHeader ? next.rows.slice(1) : next.rows) this.rows.push(row);
    return true;
  }

  markdown(): string {
    return toPipeTable(this.rows.map((row) => row.map((cell) => tableCell(cleanPdfText(cell)))));
  }
}
