/** A table read from a PDF page: its cells as text, row by row, the first row its header. */
export interface PdfTable {
  rows: string[][];
  /** Left edges of its columns (PDF units): a table continued on the next page has the same. */
  columns: number[];
}

export function isPdfTable(item: object): item is PdfTable {
  return 'rows' in item;
}
