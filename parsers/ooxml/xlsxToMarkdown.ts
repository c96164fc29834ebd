import { tableCell, toPipeTable } from '../markdownTable';
import { readRelationships } from './relationships';
import { parseXmlPart } from './xmlEvents';
import type { ZipArchive } from './zipArchive';

/**
 * Every sheet (in workbook order) as a section named after it, holding one pipe table of its
 * used cells. Values are shown as stored: shared and inline strings, numbers, booleans as
 * TRUE/FALSE; dates stay serial numbers (their format lives in styles, not worth a full
 * number-format engine for search text).
 */
export async function xlsxToMarkdown(archive: ZipArchive): Promise<string> {
  const workbook = 'xl/workbook.xml';
  const relationships = await readRelationships(archive, workbook);
  const sheets: { name: string; id: string }[] = [];
  await parseXmlPart(archive, workbook, {
    open(name, a) {
      if (name === 'sheet' && a['r:id']) sheets.push({ name: a.name ?? `Sheet ${sheets.length + 1}`, id: a['r:id'] });
    },
  });
  const sharedStrings = await readSharedStrings(archive);
  const blocks: string[] = [];
  for (const sheet of sheets) {
    const part = relationships.get(sheet.id)?.part;
    const rows = part ? await readSheet(archive, part, sharedStrings) : [];
    if (rows.length > 0) blocks.push(`# ${sheet.name}\n\n${toPipeTable(rows)}`);
  }
  return blocks.join('\n\n');
}

/** Rich-text runs (r/t) are concatenated; phonetic guides (rPh) are not part of the value. */
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
      else if (name === 'si') strings.push(current);
    },
  });
  return strings;
}

async function readSheet(archive: ZipArchive, part: string, sharedStrings: string[]): Promise<string[][]> {
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
        nextColumn = cell.column + 1;
      } else if (name === 'v' || name === 't') inValue = true;
    },
    text(text) {
      if (inValue) cell.value += text;
    },
    close(name) {
      if (name === 'v' || name === 't') inValue = false;
      else if (name === 'c') {
        const value = cellValue(cell.type, cell.value, sharedStrings);
        if (value !== '') row[cell.column] = tableCell(value);
      } else if (name === 'row' && row.some((value) => value)) rows.push(Array.from(row, (value) => value ?? ''));
    },
  });
  return rows;
}

function cellValue(type: string, raw: string, sharedStrings: string[]): string {
  if (type === 's') return sharedStrings[Number(raw)] ?? '';
  if (type === 'b') return raw === '1' ? 'TRUE' : 'FALSE';
  return raw;
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
