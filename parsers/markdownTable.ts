import { joinLineBreaks } from './lineBreaks';

/** A pipe-table cell is one line, and `|` would end the cell early. */
export function tableCell(text: string): string {
  return joinLineBreaks(text).replace(/\|/g, '\\|').trim();
}

/**
 * GFM pipe table. GFM needs a header row; the first row serves as one (spreadsheets, CSV files
 * and tables without <th> almost always have their labels there). Only the header is padded to
 * the widest row: GFM fills short body rows itself, and padding every row to the width of one
 * wide row would make the output grow with rows × width instead of with the input.
 */
export function toPipeTable(rows: string[][]): string {
  let width = 1;
  for (const cells of rows) width = Math.max(width, cells.length);
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const [header = [], ...body] = rows;
  const paddedHeader = Array.from({ length: width }, (_, i) => header[i] ?? '');
  return [line(paddedHeader), line(Array<string>(width).fill('---')), ...body.map(line)].join('\n');
}
