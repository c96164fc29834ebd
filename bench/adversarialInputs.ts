import type { SourceFileType } from '../parsers/detectFileType';
import {
  docxCellOfManyParagraphs,
  epubManyChapters,
  epubRepeatedSpine,
  odpManySlides,
  odsRepeatedValues,
  odtManyParagraphs,
  rtfBigPicture,
  rtfNestedParagraphs,
  docxDeepNesting,
  docxManyEntries,
  docxManyParagraphs,
  docxWhitespaceRun,
  pdfTinyPages,
  pptxLongTitle,
  pptxManySlides,
  pptxManyTables,
  xlsxFarColumns,
  xlsxImpossibleColumn,
  xlsxManyRows,
  xlsxRepeatedSharedString,
} from './adversarialOfficeInputs';

export * from './adversarialOfficeInputs';

/**
 * Generated hostile inputs for every parser path, each of size n (a count of characters, tags,
 * rows, pages... as its comment says). The adversarial unit tests check what each one parses to;
 * the adversarial benchmark times each path at n and 2n and compares the growth.
 */

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

/** For detectFileType: n empty comments and then a letter, 7n + 1 bytes. */
export function emptyCommentsThenText(n: number): Buffer {
  return utf8(`${'<!---->'.repeat(n)}x`);
}

/** n spaces (trailing whitespace that never reaches a line end) and then a word. */
export function spaceRunThenWord(n: number): Buffer {
  return utf8(`${' '.repeat(n)}word`);
}

/** n tabs and spaces before each of two line ends, then a word: whitespace that must be trimmed. */
export function trailingWhitespaceLines(n: number): Buffer {
  return utf8(`first${' \t'.repeat(n)}\nsecond${'\t '.repeat(n)}\nthird`);
}

/** n characters cycling through every markdown-special punctuation mark, between two words. */
export function punctuationRun(n: number): Buffer {
  const marks = '.#*_-+=|>[]()`~!<&\\';
  return utf8(`start ${Array.from({ length: n }, (_, i) => marks[i % marks.length]).join('')} end`);
}

/** One word of n letters. */
export function giantWord(n: number): Buffer {
  return utf8(`a${'x'.repeat(n)}z`);
}

/** n lines that look like ATX headings, and n heading marks in one line. */
export function headingLines(n: number): Buffer {
  return utf8(`${'# h\n'.repeat(n)}${'#'.repeat(n)} end`);
}

/** n nested <div>s around one sentence. */
export function nestedDivs(n: number): Buffer {
  return utf8(`<html><body>${'<div>'.repeat(n)}deep text survives${'</div>'.repeat(n)}</body></html>`);
}

/** n nested inline and block elements that are never closed, each with a word. */
export function unclosedTags(n: number): Buffer {
  const tags = ['b', 'div', 'span', 'i', 'section', 'em'];
  return utf8(
    `<html><body>${Array.from({ length: n }, (_, i) => `<${tags[i % tags.length]}>w${i} `).join('')}</body></html>`,
  );
}

/** n nested <div>s with n stray end tags inside, which HTML parsers look up in their open-element stack. */
export function strayEndTags(n: number): Buffer {
  return utf8(`<html><body>${'<div>'.repeat(n)}inside${'</p></span>'.repeat(n)}${'</div>'.repeat(n)}</body></html>`);
}

/** One HTML table row of n cells, and a cell of n words. */
export function wideHtmlTable(n: number): Buffer {
  const cells = Array.from({ length: n }, (_, i) => `<td>c${i}</td>`).join('');
  return utf8(`<html><body><table><tr>${cells}</tr><tr><td>${'word '.repeat(n)}</td></tr></table></body></html>`);
}

/** A CSV of a header and n rows. */
export function csvRows(n: number): Buffer {
  const rows = Array.from({ length: n }, (_, i) => `${i},name${i},${i * 2}`);
  return utf8(`id,name,double\n${rows.join('\n')}\n`);
}

/** A CSV whose header has n columns, with one short row under it. */
export function csvWideRow(n: number): Buffer {
  return utf8(`${Array.from({ length: n }, (_, i) => `h${i}`).join(',')}\nonly,two\n`);
}

/** A CSV cell of n characters: words, runs of spaces and line breaks, inside quotes. */
export function csvGiantCell(n: number): Buffer {
  const unit = 'word   \n  ';
  return utf8(`head,other\n"${unit.repeat(Math.ceil(n / unit.length))}end",x\n`);
}

export interface AdversarialInput {
  name: string;
  /** The parser path: a file type for convertFile, or 'detect' for detectFileType on the head. */
  path: SourceFileType | 'detect';
  make: (n: number) => Buffer;
  /** A size that the fixed parsers handle in well under a second; benchmarks scale from it. */
  n: number;
}

export const ADVERSARIAL_PARSER_INPUTS: readonly AdversarialInput[] = [
  { name: 'detect: empty comments then text', path: 'detect', make: emptyCommentsThenText, n: 100_000 },
  { name: 'txt: space run then a word', path: 'txt', make: spaceRunThenWord, n: 1_000_000 },
  { name: 'txt: trailing whitespace lines', path: 'txt', make: trailingWhitespaceLines, n: 500_000 },
  { name: 'txt: punctuation run', path: 'txt', make: punctuationRun, n: 1_000_000 },
  { name: 'txt: giant word', path: 'txt', make: giantWord, n: 1_000_000 },
  { name: 'txt: heading lines', path: 'txt', make: headingLines, n: 200_000 },
  { name: 'md: punctuation run', path: 'md', make: punctuationRun, n: 1_000_000 },
  { name: 'html: nested divs', path: 'html', make: nestedDivs, n: 20_000 },
  { name: 'html: unclosed tags', path: 'html', make: unclosedTags, n: 20_000 },
  { name: 'html: stray end tags', path: 'html', make: strayEndTags, n: 20_000 },
  { name: 'html: wide table', path: 'html', make: wideHtmlTable, n: 20_000 },
  { name: 'html: punctuation run', path: 'html', make: punctuationRun, n: 200_000 },
  { name: 'html: space run then a word', path: 'html', make: spaceRunThenWord, n: 1_000_000 },
  { name: 'csv: many rows', path: 'csv', make: csvRows, n: 200_000 },
  { name: 'csv: wide row', path: 'csv', make: csvWideRow, n: 200_000 },
  { name: 'csv: giant cell', path: 'csv', make: csvGiantCell, n: 1_000_000 },
  { name: 'docx: deep nesting', path: 'docx', make: docxDeepNesting, n: 100_000 },
  { name: 'docx: whitespace run', path: 'docx', make: docxWhitespaceRun, n: 1_000_000 },
  { name: 'docx: many paragraphs', path: 'docx', make: docxManyParagraphs, n: 100_000 },
  { name: 'docx: cell of many paragraphs', path: 'docx', make: docxCellOfManyParagraphs, n: 100_000 },
  { name: 'docx: many archive entries', path: 'docx', make: docxManyEntries, n: 5_000 },
  { name: 'xlsx: many rows', path: 'xlsx', make: xlsxManyRows, n: 50_000 },
  { name: 'xlsx: far columns', path: 'xlsx', make: xlsxFarColumns, n: 1_000 },
  { name: 'xlsx: impossible column', path: 'xlsx', make: xlsxImpossibleColumn, n: 100_000 },
  { name: 'xlsx: repeated shared string', path: 'xlsx', make: xlsxRepeatedSharedString, n: 100 },
  { name: 'pptx: many slides', path: 'pptx', make: pptxManySlides, n: 2_000 },
  { name: 'pptx: many tables', path: 'pptx', make: pptxManyTables, n: 20_000 },
  { name: 'pptx: long title', path: 'pptx', make: pptxLongTitle, n: 100_000 },
  { name: 'pdf: tiny pages', path: 'pdf', make: pdfTinyPages, n: 1_000 },
  { name: 'epub: many chapters', path: 'epub', make: epubManyChapters, n: 2_000 },
  { name: 'epub: repeated spine and missing items', path: 'epub', make: epubRepeatedSpine, n: 50_000 },
  { name: 'odt: paragraphs with notes and comments', path: 'odt', make: odtManyParagraphs, n: 50_000 },
  { name: 'ods: values repeated over rows and columns', path: 'ods', make: odsRepeatedValues, n: 20 },
  { name: 'odp: many slides', path: 'odp', make: odpManySlides, n: 5_000 },
  { name: 'rtf: nested paragraphs of escaped characters', path: 'rtf', make: rtfNestedParagraphs, n: 5_000 },
  { name: 'rtf: big picture destination', path: 'rtf', make: rtfBigPicture, n: 2_000_000 },
  { name: 'json: many records', path: 'json', make: jsonRecords, n: 100_000 },
  { name: 'json: objects nested 400 deep', path: 'json', make: jsonDeepObjects, n: 2_000 },
  { name: 'xml: many records', path: 'xml', make: xmlRecords, n: 50_000 },
  { name: 'xml: deep inline text with tails', path: 'xml', make: xmlDeepInline, n: 500 },
  { name: 'mbox: many messages', path: 'mbox', make: mboxMessages, n: 5_000 },
  { name: 'eml: many attachments', path: 'eml', make: emlAttachments, n: 5_000 },
];

/** An array of n records of three keys: one table row each. */
export function jsonRecords(n: number): Buffer {
  return Buffer.from(
    JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i, name: `item ${i}`, ok: i % 2 === 0 }))),
  );
}

/** n objects each nested 400 deep (under the bound), side by side in an array. */
export function jsonDeepObjects(n: number): Buffer {
  const one = `${'{"k":'.repeat(400)}"leaf"${'}'.repeat(400)}`;
  return Buffer.from(`[${Array.from({ length: n }, () => one).join(',')}]`);
}

/** n records of a few leaf values each, under one root. */
export function xmlRecords(n: number): Buffer {
  const record = (i: number) =>
    `<item id="${i}"><name>item ${i}</name><qty>${i}</qty><note>a <b>bold</b> note</note></item>`;
  return Buffer.from(`<?xml version="1.0"?><items>${Array.from({ length: n }, (_, i) => record(i)).join('')}</items>`);
}

/** n paragraphs whose text sits under 250 levels of inline elements, with text after each level. */
export function xmlDeepInline(n: number): Buffer {
  const p = `<p>${'<i>'.repeat(250)}deep${'</i> tail'.repeat(250)}</p>`;
  return Buffer.from(`<?xml version="1.0"?><doc>${p.repeat(n)}</doc>`);
}

/** A mailbox of n short messages. */
export function mboxMessages(n: number): Buffer {
  const message = (i: number) =>
    `From a@example.org Tue Dec  8 09:00:00 2026\nFrom: a@example.org\nSubject: message ${i}\n\nbody ${i}\n>From quoted\n`;
  return Buffer.from(Array.from({ length: n }, (_, i) => message(i)).join(''));
}

/** One message of n small text attachments. */
export function emlAttachments(n: number): Buffer {
  const part = (i: number) =>
    `--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="a${i}.txt"\r\n\r\nattachment ${i}\r\n`;
  return Buffer.from(
    `From: a@example.org\r\nMIME-Version: 1.0\r\nSubject: many\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${Array.from({ length: n }, (_, i) => part(i)).join('')}--b--\r\n`,
  );
}
