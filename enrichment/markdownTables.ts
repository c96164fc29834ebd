/**
 * Markdown pipe tables in parsed markdown: finding those whose rows do not line up, and checking a
 * model's repaired table before it may replace one. Pure and linear (one pass over the lines).
 */

export interface MarkdownTable {
  /** Line index of the table's first row, and the number of its lines. */
  start: number;
  lines: number;
  text: string;
}

const isRow = (line: string) => line.trimStart().startsWith('|');
const SEPARATOR_CELL = /^:?-{1,}:?$/;

/** The cells of one row: split on pipes not escaped, the outer pipes dropped. */
export function cellsOf(line: string): string[] {
  const body = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return body.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

/** Blocks of two or more consecutive pipe rows whose second row is a separator row. */
export function findTables(markdown: string): MarkdownTable[] {
  const lines = markdown.split('\n');
  const tables: MarkdownTable[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!isRow(lines[i] ?? '')) {
      i++;
      continue;
    }
    let end = i;
    while (end < lines.length && isRow(lines[end] ?? '')) end++;
    const block = lines.slice(i, end);
    if (block.length >= 2 && cellsOf(block[1] ?? '').every((c) => SEPARATOR_CELL.test(c)))
      tables.push({ start: i, lines: block.length, text: block.join('\n') });
    i = end;
  }
  return tables;
}

/** True when some row has another number of cells than the header. */
export function isRagged(table: MarkdownTable): boolean {
  const rows = table.text.split('\n').map((line) => cellsOf(line).length);
  return rows.some((n) => n !== rows[0]);
}

/**
 * The model's answer as a table, or null: only a pipe table (optionally in one code fence), with a
 * separator row and the same number of cells in every row, and no more than `maxChars`.
 */
export function wellFormedTable(answer: string, maxChars: number): string | null {
  if (answer.length > maxChars) return null;
  const unfenced = answer
    .trim()
    .replace(/^```[a-z]*\n/i, '')
    .replace(/\n```$/, '')
    .trim();
  const lines = unfenced.split('\n').map((line) => line.trim());
  if (lines.length < 2 || !lines.every(isRow)) return null;
  const counts = lines.map((line) => cellsOf(line).length);
  if (counts.some((n) => n !== counts[0])) return null;
  if (!cellsOf(lines[1] ?? '').every((c) => SEPARATOR_CELL.test(c))) return null;
  return lines.join('\n');
}

/** The markdown with each table (by start line) replaced by its repair; tables not named stay. */
export function replaceTables(markdown: string, repairs: ReadonlyMap<number, { lines: number; text: string }>): string {
  if (repairs.size === 0) return markdown;
  const lines = markdown.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    const repair = repairs.get(i);
    if (repair) {
      out.push(repair.text);
      i += repair.lines;
    } else out.push(lines[i++] ?? '');
  }
  return out.join('\n');
}
