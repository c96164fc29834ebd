import { normalizeText, normalizeWords } from './pdfStructureText';

/**
 * The structure a side's markdown shows, read the way a CommonMark reader would see it, only as
 * far as the scores need: pipe tables, list items, fenced and indented code, ATX headings. Text a
 * side emits without markdown (pdf-parse's plain text) has none of these, which is the point.
 */
export interface MarkdownStructure {
  /** Each pipe table's rows, each row its non-empty cells (normalized). */
  tables: string[][][];
  /** Each list item's text with its continuation lines (normalized). */
  listItems: string[];
  /** Lines inside fenced or indented code blocks, whitespace collapsed, non-empty. */
  codeLines: string[];
  headings: { level: number; text: string }[];
  words: string[];
  /** All normalized words joined by single spaces: where blocks are looked up for reading order. */
  flat: string;
}

const LIST_ITEM = /^\s{0,3}(?:[-*+]|\d{1,9}[.)])\s+(.*)$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;
const INDENTED = /^(?: {4}|\t)/;

/** Cells of a pipe row; `\|` is a pipe inside a cell. */
function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => normalizeText(cell.replace(/\\\|/g, '|')))
    .filter((cell) => cell !== '');
}

export function readMarkdown(markdown: string): MarkdownStructure {
  const lines = markdown.split('\n');
  const structure: MarkdownStructure = { tables: [], listItems: [], codeLines: [], headings: [], words: [], flat: '' };
  const code = (line: string) => {
    const collapsed = line.replace(/\s+/g, ' ').trim();
    if (collapsed !== '') structure.codeLines.push(collapsed);
  };
  let fence: string | undefined;
  let table: string[][] | undefined;
  let item: string[] | undefined;
  // Whether the previous line was blank and not inside a list: where an indented code block may start.
  let indentedCodeMayStart = true;
  let inIndentedCode = false;
  const closeItem = () => {
    if (item) structure.listItems.push(normalizeText(item.join(' ')));
    item = undefined;
  };
  for (const line of lines) {
    if (fence !== undefined) {
      if (line.trim().startsWith(fence)) fence = undefined;
      else code(line);
      continue;
    }
    const blank = line.trim() === '';
    if (inIndentedCode && (blank || INDENTED.test(line))) {
      code(line.replace(INDENTED, ''));
      continue;
    }
    inIndentedCode = false;
    const fenceOpen = FENCE.exec(line);
    if (!TABLE_ROW.test(line)) table = undefined;
    if (fenceOpen) {
      closeItem();
      fence = fenceOpen[1]!.slice(0, 3);
    } else if (blank) {
      indentedCodeMayStart = item === undefined;
      closeItem();
      continue;
    } else if (INDENTED.test(line) && indentedCodeMayStart && item === undefined) {
      inIndentedCode = true;
      code(line.replace(INDENTED, ''));
    } else if (TABLE_ROW.test(line)) {
      closeItem();
      if (!TABLE_RULE.test(line)) {
        if (!table) structure.tables.push((table = []));
        const cells = cellsOf(line);
        if (cells.length > 0) table.push(cells);
      }
    } else if (HEADING.test(line)) {
      closeItem();
      const [, hashes, text] = HEADING.exec(line)!;
      structure.headings.push({ level: hashes!.length, text: normalizeText(text!) });
    } else if (LIST_ITEM.test(line)) {
      closeItem();
      item = [LIST_ITEM.exec(line)![1]!];
    } else if (item) {
      item.push(line);
    }
    indentedCodeMayStart = false;
  }
  closeItem();
  structure.tables = structure.tables.filter((rows) => rows.length > 0);
  structure.words = normalizeWords(markdown);
  structure.flat = structure.words.join(' ');
  return structure;
}
