import { parse } from 'csv-parse/sync';
import { permanentError } from '../contracts/sluiceError';
import { tableCell, toPipeTable } from './markdownTable';
import { decodeDetected } from './textEncoding';

const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'];
const SNIFF_LINES = 20;

/**
 * CSV/TSV (any detected encoding) to one markdown table whose first row is the header. A table
 * keeps each value next to its column label, which is what makes a row retrievable on its own.
 */
export function csvToMarkdown(bytes: Uint8Array): string {
  const text = decodeDetected(bytes);
  let rows: string[][];
  try {
    rows = parse(text, {
      delimiter: sniffDelimiter(text),
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as string[][];
  } catch (error) {
    throw permanentError(
      'CORRUPT_DOCUMENT',
      `the CSV cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      error,
    );
  }
  const cells = rows.map((row) => row.map(tableCell)).filter((row) => row.some((cell) => cell !== ''));
  return cells.length === 0 ? '' : toPipeTable(cells);
}

/**
 * The delimiter that splits the first lines into the same number (more than one) of fields most
 * consistently; comma when nothing stands out. Quoted fields are skipped over roughly, which is
 * enough to count delimiters.
 */
export function sniffDelimiter(text: string): string {
  const lines = text
    .split(/\r?\n/, SNIFF_LINES + 1)
    .slice(0, SNIFF_LINES)
    .filter((line) => line.trim() !== '');
  let best = { delimiter: ',', score: 0 };
  for (const delimiter of CANDIDATE_DELIMITERS) {
    const counts = lines.map((line) => line.replace(/"[^"]*"/g, '').split(delimiter).length - 1);
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    const score = counts.filter((count) => count === first).length * Math.min(first, 10);
    if (score > best.score) best = { delimiter, score };
  }
  return best.delimiter;
}
