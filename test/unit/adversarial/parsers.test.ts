import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  csvGiantCell,
  csvWideRow,
  emptyCommentsThenText,
  giantWord,
  headingLines,
  nestedDivs,
  punctuationRun,
  spaceRunThenWord,
  strayEndTags,
  trailingWhitespaceLines,
  unclosedTags,
  wideHtmlTable,
} from '../../../bench/adversarialInputs';
import { convertFile } from '../../../parsers/convertFile';
import { detectFileType, type SourceFileType } from '../../../parsers/detectFileType';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { inTime } from './inTime';

/**
 * Generated hostile inputs for the text-like parsers, each big enough that a quadratic or
 * exponential step would run for minutes or overflow the stack. Each must give the right text.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-adversarial-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function convert(bytes: Buffer, type: SourceFileType): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${type}`);
  await writeFile(file, bytes);
  return inTime(() => convertFile(file, type, DEFAULT_PARSE_LIMITS));
}

const MILLION = 1_000_000;
const punctuation = punctuationRun(MILLION).toString();
const word = giantWord(MILLION).toString();

describe('detectFileType on hostile heads', () => {
  it.each([
    ['a million empty comments then text', emptyCommentsThenText(MILLION), 'txt'],
    [
      'a million empty comments then <html>',
      Buffer.concat([emptyCommentsThenText(MILLION).subarray(0, -1), Buffer.from('<html>')]),
      'html',
    ],
    ['a punctuation run', punctuationRun(MILLION), 'txt'],
    ['a giant word', giantWord(MILLION), 'txt'],
    ['nested divs without a document tag', Buffer.from('<div>'.repeat(MILLION)), 'txt'],
  ])('%s', async (_name, head, type) => {
    expect(await inTime(() => detectFileType(head, 'upload'))).toBe(type);
  });
});

describe('plain text', () => {
  it.each([
    ['a space run then a word', spaceRunThenWord(MILLION), 'word'],
    ['whitespace at line ends', trailingWhitespaceLines(MILLION / 2), 'first\nsecond\nthird'],
    ['a punctuation run', punctuationRun(MILLION), punctuation],
    ['a million-character word', giantWord(MILLION), word],
  ])('%s', async (_name, bytes, expected) => {
    expect(await convert(bytes, 'txt')).toBe(expected);
  });

  it('escapes a run of heading-like lines and leaves an overlong heading mark alone', async () => {
    const lines = (await convert(headingLines(200_000), 'txt')).split('\n');
    expect(lines).toHaveLength(200_001);
    expect(lines[199_999]).toBe('\\# h');
    expect(lines[200_000]).toBe(`${'#'.repeat(200_000)} end`);
  });
});

describe('markdown', () => {
  it.each([
    ['a punctuation run', punctuationRun(MILLION), punctuation],
    ['a million-character word', giantWord(MILLION), word],
    ['a space run then a word', spaceRunThenWord(MILLION), `${' '.repeat(MILLION)}word`],
  ])('passes %s through', async (_name, bytes, expected) => {
    expect(await convert(bytes, 'md')).toBe(expected);
  });
});

describe('HTML', () => {
  it('keeps the text of 100,000 nested divs', async () => {
    expect(await convert(nestedDivs(100_000), 'html')).toBe('deep text survives');
  });

  it('keeps every word of 100,000 unclosed tags', async () => {
    const words = (await convert(unclosedTags(100_000), 'html')).match(/w\d+/g) ?? [];
    expect(words).toHaveLength(100_000);
    expect(words[99_999]).toBe('w99999');
  });

  it('keeps the text around 100,000 stray end tags', async () => {
    expect(await convert(strayEndTags(100_000), 'html')).toBe('inside');
  });

  it('renders a table row of 20,000 cells and a cell of 20,000 words', async () => {
    const lines = (await convert(wideHtmlTable(20_000), 'html')).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\| c0 \| c1 \| .* \| c19999 \|$/);
    expect(lines[2]).toBe(`| ${'word '.repeat(20_000).trim()} |`);
  });

  it.each([
    ['a million spaces', spaceRunThenWord(MILLION), 'word'],
    ['a million-character word', giantWord(MILLION), word],
  ])('converts %s', async (_name, bytes, expected) => {
    expect(await convert(bytes, 'html')).toBe(expected);
  });

  it('keeps the words around a punctuation run', async () => {
    const markdown = await convert(punctuationRun(200_000), 'html');
    expect(markdown.startsWith('start ')).toBe(true);
    expect(markdown.endsWith(' end')).toBe(true);
  });
});

describe('CSV', () => {
  it('renders a 200,000-column header over a short row', async () => {
    const lines = (await convert(csvWideRow(200_000), 'csv')).split('\n');
    expect(lines.map((line) => line.length > 100)).toEqual([true, true, false]);
    expect(lines[0]!.endsWith('| h199999 |')).toBe(true);
  });

  it('flattens a million-character multi-line cell', async () => {
    const markdown = await convert(csvGiantCell(MILLION), 'csv');
    expect(markdown.split('\n')).toHaveLength(3);
    expect(markdown.endsWith('word word end | x |')).toBe(true);
  });

  it.each([
    ['a punctuation run', punctuationRun(MILLION), /^\| start .* end \|$/],
    ['a million-character word', giantWord(MILLION), /^\| ax+z \|$/],
  ])('renders %s as a table header', async (_name, bytes, header) => {
    const lines = (await convert(bytes, 'csv')).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(header);
  });
});
