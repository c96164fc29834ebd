/** A pipe-table cell is one line, and `|` would end the cell early. */
export function tableCell(text: string): string {
  return text.replace(/\s*\n+\s*/g, ' ').replace(/\|/g, '\\|').trim();
}

/**
 * GFM pipe table. GFM needs a header row; the first row serves as one (spreadsheets, CSV files
 * and tables without <th> almost always have their labels there). Short rows are padded.
 */
export function toPipeTable(rows: string[][]): string {
  const width = Math.max(1, ...rows.map((cells) => cells.length));
  const line = (cells: string[]): string => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), line(Array<string>(width).fill('---')), ...body.map(line)].join('\n');
}
