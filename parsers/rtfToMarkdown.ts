import { permanentError } from '../contracts/sluiceError';
import { tableCell, toPipeTable } from './markdownTable';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from './markdownBudget';

/** Destinations whose text is not the document's: tables of fonts and colours, metadata, pictures, fields' code. */
const SKIPPED_DESTINATIONS = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'header',
  'headerl',
  'headerr',
  'headerf',
  'footer',
  'footerl',
  'footerr',
  'footerf',
  'fldinst',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'filetbl',
  'revtbl',
  'bkmkstart',
  'bkmkend',
]);

const CONTROL_SYMBOLS: Record<string, string> = { '~': ' ', _: '-', '-': '' };

/** Groups a document may nest: real RTF nests a few dozen; each level holds one small state. */
const MAX_DEPTH = 1000;

interface GroupState {
  skip: boolean;
  /** `\ucN`: characters that stand in for each `\u` character and are dropped after it. */
  uc: number;
  outline: number | null;
  indent: number;
  intbl: boolean;
}

/**
 * RTF (what WordPad, TextEdit and pandoc write) as markdown, in one pass over the text: paragraphs,
 * headings from `\outlinelevel`, list items from a leading bullet or dash with their indent,
 * tables from `\cell` and `\row` as pipe tables, `\uN` and `\'hh` characters in the document's
 * code page. Fonts, colours, styles, metadata, pictures, headers and footers and every ignorable
 * destination are left out.
 */
export function rtfToMarkdown(bytes: Buffer, budget: MarkdownBudget = UNLIMITED_MARKDOWN()): string {
  const source = bytes.toString('latin1');
  if (!source.startsWith('{\\rtf')) throw permanentError('CORRUPT_DOCUMENT', 'not an RTF document');
  let codePage = 'windows-1252';
  const stack: GroupState[] = [];
  let state: GroupState = { skip: false, uc: 1, outline: null, indent: 0, intbl: false };
  let text = '';
  let dropNext = 0;
  let bytesRun: number[] = [];
  const blocks: string[] = [];
  let cells: string[] = [];
  let rows: string[][] = [];
  let cellText = '';
  let listBlock: string[] = [];

  const flushBytes = () => {
    if (bytesRun.length === 0) return;
    text += new TextDecoder(codePage).decode(Uint8Array.from(bytesRun));
    bytesRun = [];
  };
  const emit = (block: string) => {
    budget.add(block, 2);
    blocks.push(block);
  };
  const flushList = () => {
    if (listBlock.length > 0) emit(listBlock.join('\n'));
    listBlock = [];
  };
  const flushTable = () => {
    if (rows.length === 0) return;
    const width = rows.reduce((most, r) => Math.max(most, r.length), 0);
    emit(toPipeTable(rows.map((r) => [...r, ...Array<string>(width - r.length).fill('')])));
    rows = [];
  };
  const paragraph = () => {
    flushBytes();
    const line = text.replace(/\s+/g, ' ').trim();
    text = '';
    if (state.intbl) {
      cellText = cellText === '' ? line : `${cellText} ${line}`.trim();
      return;
    }
    flushTable();
    if (line === '') return;
    const bullet = /^(?:[•·\u2013\u2014]\s*|[-*]\s+)/.exec(line);
    if (bullet) {
      // A list item's level from its left indent (\li, in twips: 360 a level, as Word and pandoc write).
      const depth = Math.max(0, Math.round(state.indent / 360) - 1);
      listBlock.push(`${'  '.repeat(Math.min(depth, 8))}- ${line.slice(bullet[0].length)}`);
      return;
    }
    flushList();
    if (state.outline !== null) emit(`${'#'.repeat(Math.min(6, state.outline + 1))} ${line}`);
    else emit(line);
  };

  for (let i = 0; i < source.length;) {
    const c = source[i] as string;
    if (c === '{') {
      if (stack.length >= MAX_DEPTH) throw permanentError('CORRUPT_DOCUMENT', `groups nested deeper than ${MAX_DEPTH}`);
      flushBytes();
      stack.push(state);
      state = { ...state };
      i++;
      // An ignorable destination `{\*\name ...}` is skipped whole unless it is one we read (none).
      if (source.startsWith('\\*', i)) state.skip = true;
      continue;
    }
    if (c === '}') {
      flushBytes();
      state = stack.pop() ?? state;
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      i++;
      continue;
    }
    if (c !== '\\') {
      if (!state.skip) {
        if (dropNext > 0) dropNext--;
        else {
          flushBytes();
          text += c;
        }
      }
      i++;
      continue;
    }
    // A control symbol or word.
    const next = source[i + 1] ?? '';
    if (next === "'") {
      const code = parseInt(source.slice(i + 2, i + 4), 16);
      if (!state.skip && Number.isFinite(code)) {
        if (dropNext > 0) dropNext--;
        else bytesRun.push(code);
      }
      i += 4;
      continue;
    }
    if (!/[a-z]/i.test(next)) {
      if (!state.skip && next !== '*') {
        flushBytes();
        // `\<newline>` is a paragraph; `\~` a no-break space, `\_` a no-break hyphen, `\-` an optional one.
        if (next === '\n' || next === '\r') paragraph();
        else text += CONTROL_SYMBOLS[next] ?? next;
      }
      i += 2;
      continue;
    }
    let end = i + 1;
    while (end < source.length && end - i <= 33 && /[a-z]/i.test(source[end] as string)) end++;
    const word = source.slice(i + 1, end);
    let paramEnd = end;
    if (source[paramEnd] === '-') paramEnd++;
    while (paramEnd < source.length && paramEnd - end <= 10 && /[0-9]/.test(source[paramEnd] as string)) paramEnd++;
    const param = paramEnd > end ? Number(source.slice(end, paramEnd)) : null;
    i = source[paramEnd] === ' ' ? paramEnd + 1 : paramEnd;
    if (SKIPPED_DESTINATIONS.has(word)) {
      state.skip = true;
      continue;
    }
    if (word === 'ansicpg' && param !== null && param > 0) codePage = `windows-${param}`;
    if (state.skip) continue;
    switch (word) {
      case 'par':
      case 'sect':
      case 'page':
        paragraph();
        break;
      case 'line':
      case 'tab':
        flushBytes();
        text += ' ';
        break;
      case 'pard':
        state.outline = null;
        state.indent = 0;
        state.intbl = false;
        break;
      case 'outlinelevel':
        state.outline = param !== null && param >= 0 && param < 9 ? param : null;
        break;
      case 'li':
        state.indent = param ?? 0;
        break;
      case 'intbl':
        state.intbl = true;
        break;
      case 'cell':
        paragraph();
        cells.push(tableCell(cellText));
        cellText = '';
        break;
      case 'row':
        flushList();
        rows.push(cells);
        cells = [];
        break;
      case 'uc':
        state.uc = Math.max(0, Math.min(param ?? 1, 4));
        break;
      case 'u':
        if (param !== null) {
          flushBytes();
          text += String.fromCharCode(param < 0 ? param + 65536 : param);
          dropNext = state.uc;
        }
        break;
      case 'bullet':
        text += '•';
        break;
      case 'endash':
        text += '–';
        break;
      case 'emdash':
        text += '—';
        break;
      case 'lquote':
      case 'rquote':
        text += "'";
        break;
      case 'ldblquote':
      case 'rdblquote':
        text += '"';
        break;
    }
  }
  paragraph();
  flushList();
  flushTable();
  return blocks.join('\n\n');
}
