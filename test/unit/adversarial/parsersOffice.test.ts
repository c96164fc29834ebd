import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  docxCellOfManyParagraphs,
  docxDeepNesting,
  docxManyEntries,
  docxManyParagraphs,
  docxWhitespaceRun,
  pptxLongTitle,
  pptxManySlides,
  pptxManyTables,
  xlsxFarColumns,
  xlsxImpossibleColumn,
  xlsxManyRows,
  xlsxRepeatedSharedString,
} from '../../../bench/adversarialInputs';
import { stripPageMarkers } from '../../../chunker/chunkPages';
import { convertFile } from '../../../parsers/convertFile';
import type { SourceFileType } from '../../../parsers/detectFileType';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { inTime } from './inTime';

/**
 * Generated hostile Office documents: deep nesting, many parts, long runs. Each must
 * give the right text or fail with its own code, in time linear in what it holds.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-adversarial-office-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function convert(bytes: Buffer, type: SourceFileType): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${type}`);
  await writeFile(file, bytes);
  return stripPageMarkers(await inTime(() => convertFile(file, type, DEFAULT_PARSE_LIMITS))).text;
}

describe('DOCX', () => {
  it('refuses XML nested 300,000 deep, with stray end tags, as CORRUPT_DOCUMENT', async () => {
    // The SAX parser's open-element stack made each open and stray end tag cost the depth.
    await expect(convert(docxDeepNesting(300_000), 'docx')).rejects.toMatchObject({
      code: 'CORRUPT_DOCUMENT',
      message: expect.stringContaining('nested'),
    });
  });

  it('reads a paragraph inside moderate nesting', async () => {
    expect(await convert(docxDeepNesting(100), 'docx')).toBe('deep paragraph');
  });

  it('keeps a list item with a million no-break spaces', async () => {
    expect(await convert(docxWhitespaceRun(1_000_000), 'docx')).toBe(`- before${'\u00a0'.repeat(1_000_000)}after`);
  });

  it('reads 200,000 paragraphs', async () => {
    const blocks = (await convert(docxManyParagraphs(200_000), 'docx')).split('\n\n');
    expect(blocks).toHaveLength(200_000);
    expect(blocks[199_999]).toBe('paragraph199999');
  });

  it('joins 100,000 paragraphs of one table cell', async () => {
    const lines = (await convert(docxCellOfManyParagraphs(100_000), 'docx')).split('\n');
    expect(lines[0]).toBe('| head |');
    expect(lines[2]).toMatch(/^\| line0 line1 .* line99999 \|$/);
  });

  it('reads an archive of 19,000 parts and refuses one of 25,000 as FILE_TOO_LARGE', async () => {
    expect(await convert(docxManyEntries(19_000), 'docx')).toBe('many entries');
    await expect(convert(docxManyEntries(25_000), 'docx')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });
});

describe('XLSX', () => {
  it('renders a sheet of 100,000 rows', async () => {
    const lines = (await convert(xlsxManyRows(100_000), 'xlsx')).split('\n');
    expect(lines).toHaveLength(100_003);
    expect(lines[100_002]).toBe('| row99999 | 99999 |');
  });

  it('refuses a sheet that needs billions of empty cells to lay out as FILE_TOO_LARGE', async () => {
    await expect(convert(xlsxFarColumns(10_000), 'xlsx')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });

  it('lays out a few rows in the last column', async () => {
    const lines = (await convert(xlsxFarColumns(3), 'xlsx')).split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe(`| ${' | '.repeat(16_383)}far2 |`);
  });

  it('lays out a megabyte shared string in 3 cells, and refuses 100 copies of it (100 MB of markdown from a few KB) as FILE_TOO_LARGE', async () => {
    // Cleaned once, not once per cell that refers to it; its copies count against the markdown cap as they are laid out.
    const lines = (await convert(xlsxRepeatedSharedString(3), 'xlsx')).split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe(`| ${'word '.repeat(200_000).trim()} |`);
    await expect(convert(xlsxRepeatedSharedString(100), 'xlsx')).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: expect.stringContaining('bytes of markdown'),
    });
  });

  it.each([3, 100_000])(
    'refuses a cell reference %d letters long (beyond column XFD) as CORRUPT_DOCUMENT',
    async (letters) => {
      await expect(convert(xlsxImpossibleColumn(letters), 'xlsx')).rejects.toMatchObject({ code: 'CORRUPT_DOCUMENT' });
    },
  );
});

describe('PPTX', () => {
  it('reads 3,000 slides in presentation order', async () => {
    const markdown = await convert(pptxManySlides(3_000), 'pptx');
    expect(markdown.match(/^# Slide \d+/gm)).toHaveLength(3_000);
    expect(markdown.endsWith('# Slide 3000: Slide title 2999\n\n- bullet2999')).toBe(true);
  });

  it('renders 200,000 tables of one slide', async () => {
    // Each table was appended by copying the slide's list of tables: 100,000 took 100 s.
    const markdown = await convert(pptxManyTables(200_000), 'pptx');
    expect(markdown.match(/^\| cell\d+ \|$/gm)).toHaveLength(200_000);
    expect(markdown.endsWith('| cell199999 |\n| --- |')).toBe(true);
  });

  it('joins a title of 200,000 paragraphs', async () => {
    // trim() copied the growing title once per paragraph: 100,000 took 56 s.
    const markdown = await convert(pptxLongTitle(200_000), 'pptx');
    expect(markdown).toBe(`# Slide 1: ${Array.from({ length: 200_000 }, (_, i) => `t${i}`).join(' ')}`);
  });
});
