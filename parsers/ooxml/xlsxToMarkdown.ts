import { pageMarker } from '../../chunker/pageMarkers';
import { permanentError } from '../../contracts/sluiceError';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from '../markdownBudget';
import { tableCell, toPipeTable } from '../markdownTable';
import { readRelationships } from './relationships';
import { SheetLayoutBudget } from './sheetLayoutBudget';
import { parseXmlPart } from './xmlEvents';
import type { ZipArchive } from './zipArchive';

/** Excel's last column is XFD, the 16,384th. */
const MAX_COLUMNS = 16_384;

/**
 * Every sheet (in workbook order) as a section named after it, holding one pipe table of its
 * used cells. Values are shown as stored: shared and inline strings, numbers, booleans as
 * TRUE/FALSE; dates stay serial numbers (their format lives in styles, not worth a full
 * number-format engine for search text).
 */
export async function xlsxToMarkdown(
  archive: ZipArchive,
  markdown: MarkdownBudget = UNLIMITED_MARKDOWN(),
): Promise<string> {
  const workbook = 'xl/workbook.xml';
  const relationships = await readRelationships(archive, workbook);
  const sheets: { name: string; id: string }[] = [];
  await parseXmlPart(archive, workbook, {
    open(name, a) {
      if (name === 'sheet' && a['r:id']) sheets.push({ name: a.name ?? `Sheet ${sheets.length + 1}`, id: a['r:id'] });
    },
  });
  const sharedStrings = await readSharedStrings(archive);
  const budget = new SheetLayoutBudget(markdown);
  const blocks: string[] = [];
  for (const [index, sheet] of sheets.entries()) {
    const part = relationships.get(sheet.id)?.part;
    const rows = part ? await readSheet(archive, part, sharedStrings, budget) : [];
    // Each sheet is a page (chunker/pageMarkers.ts), so a chunk says which sheet it came from.
    if (rows.length > 0) blocks.push(`${pageMarker(index + 1)}\n\n# ${sheet.name}\n\n${toPipeTable(rows)}`);
  }
  return blocks.join('\n\n');
}

/**
 * Rich-text runs (r/t) are concatenated; phonetic guides (rPh) are not part of the value. Each is
 * made a table cell here, once, however many cells refer to it.
 */
async function readSharedStrings(archive: ZipArchive): Promise<string[]> {
  const strings: string[] = [];
  let current = '';
  let inText = false;
  let phonetic = 0;
  await parseXmlPart(archive, 'xl/sharedStrings.xml', {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't') inText = phonetic === 0;
    },
    text(text) {
      if (inText) current += text;
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si') strings.push(tableCell(current));
    },
  });
  return strings;
}

async function readSheet(
  archive: ZipArchive,
  part: string,
  sharedStrings: string[],
  budget: SheetLayoutBudget,
): Promise<string[][]> {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = { column: 0, type: 'n', value: '' };
  let nextColumn = 0;
  let inValue = false;
  await parseXmlPart(archive, part, {
    open(name, a) {
      if (name === 'row') [row, nextColumn] = [[], 0];
      else if (name === 'c') {
        // Empty cells are usually omitted: the reference (e.g. "C7") places the value.
        cell = { column: a.r ? columnIndex(a.r) : nextColumn, type: a.t ?? 'n', value: '' };
        if (cell.column >= MAX_COLUMNS) {
          throw permanentError(
            'CORRUPT_DOCUMENT',
            `sheet ${part} has a cell beyond column XFD (${(a.r ?? '').slice(0, 12)})`,
          );
        }
        nextColumn = cell.column + 1;
      } else if (name === 'v' || name === 't') inValue = true;
    },
    text(text) {
      if (inValue) cell.value += text;
    },
    close(name) {
      if (name === 'v' || name === 't') inValue = false;
      else if (name === 'c') {
        const value = cellText(cell.type, cell.value, sharedStrings);
        if (value === '') return;
        budget.addValue(part, value);
        row[cell.column] = value;
      } else if (name === 'row' && row.some((value) => value)) {
        budget.addRow(part, row.length);
        rows.push(Array.from(row, (value) => value ?? ''));
      }
    },
  });
  return rows;
}

/** A cell's value as table-cell text; shared strings were made table cells when read. */
function cellText(type: string, raw: string, sharedStrings: string[]): string {
  if (type === 's') return sharedStrings[Number(raw)] ?? '';
  if (type === 'b') return raw === '1' ? 'TRUE' : 'FALSE';
  return tableCell(raw);
}

/** "AB12" → 27 (zero-based column of the reference). */
export function columnIndex(reference: string): number {
  let index = 0;
  for (const char of reference) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    index = index * 26 + (code - 64);
  }
  return index - 1;
}
