import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripPageMarkers } from '../../../chunker/chunkPages';
import { splitPages } from '../../../chunker/pageMarkers';
import { convertFile } from '../../../parsers/convertFile';
import type { SourceFileType } from '../../../parsers/detectFileType';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { docxFixture, pptxFixture, xlsxFixture } from '../../../testkit/fixtures/officeFixtures';
import { zipFixture } from '../../../testkit/fixtures/zipFixture';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-office-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function convertMarked(
  bytes: Buffer | string,
  type: SourceFileType,
  limits = DEFAULT_PARSE_LIMITS,
): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${type}`);
  await writeFile(file, bytes);
  return convertFile(file, type, limits);
}

/** The markdown without its page markers: what the tests of content compare. */
async function convert(bytes: Buffer | string, type: SourceFileType, limits = DEFAULT_PARSE_LIMITS): Promise<string> {
  return stripPageMarkers(await convertMarked(bytes, type, limits)).text;
}

describe('DOCX', () => {
  it('maps heading styles by name (localized ids), lists, tables, and leaves field codes out', async () => {
    const markdown = await convert(
      docxFixture([
        { heading: 1, text: 'Expense policy' },
        { text: 'Claims are filed with form FORM-2024-001 within 30 days.' },
        { heading: 2, text: 'Limits' },
        { bullet: 'Hotel: 150 EUR per night' },
        {
          table: [
            ['Item', 'Limit'],
            ['Meal', '40 | 60 EUR'],
          ],
        },
      ]),
      'docx',
    );
    expect(markdown).toBe(
      [
        '# Expense policy',
        'Claims are filed with form FORM-2024-001 within 30 days.',
        '## Limits',
        '- Hotel: 150 EUR per night',
        '| Item | Limit |\n| --- | --- |\n| Meal | 40 \\| 60 EUR |',
      ].join('\n\n'),
    );
  });

  it('stops a zip bomb at the uncompressed-size budget, even when the sizes are lied about', async () => {
    const limits = { ...DEFAULT_PARSE_LIMITS, maxUncompressedBytes: 1024 * 1024 };
    const bomb = Buffer.alloc(8 * 1024 * 1024, 0x20);
    const honest = docxFixture([{ text: 'x' }], [{ name: 'word/media/padding.bin', data: bomb }]);
    await expect(convert(honest, 'docx', limits)).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
      message: expect.stringContaining('declares'),
    });
    const lying = zipFixture([
      {
        name: 'word/document.xml',
        data: Buffer.concat([Buffer.from('<w:document><w:body>'), bomb]),
        declaredSize: 100,
      },
    ]);
    await expect(convert(lying, 'docx', limits)).rejects.toMatchObject({
      code: expect.stringMatching(/^(FILE_TOO_LARGE|CORRUPT_DOCUMENT)$/),
    });
  });

  it('rejects a ZIP that is no Office document, and a damaged ZIP', async () => {
    await expect(convert(zipFixture([{ name: 'readme.txt', data: 'hello' }]), 'docx')).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE_TYPE',
    });
    await expect(convert(docxFixture([{ text: 'cut' }]).subarray(0, 120), 'docx')).rejects.toMatchObject({
      code: 'CORRUPT_DOCUMENT',
    });
  });
});

describe('XLSX', () => {
  it('renders each sheet as a section with a pipe table of shared strings and numbers', async () => {
    const markdown = await convert(
      xlsxFixture([
        {
          name: 'Budget 2024',
          rows: [
            ['Team', 'Amount'],
            ['Search', 1200.5],
            ['Ingest', 800],
          ],
        },
        { name: 'Empty', rows: [] },
      ]),
      'xlsx',
    );
    expect(markdown).toBe('# Budget 2024\n\n| Team | Amount |\n| --- | --- |\n| Search | 1200.5 |\n| Ingest | 800 |');
  });
});

describe('PPTX', () => {
  it('orders slides by the presentation list and keeps titles, bullets and speaker notes, not slide numbers', async () => {
    const markdown = await convert(
      pptxFixture([
        { title: 'Quarterly review', bullets: ['Revenue up'], notes: 'Mention the new region.' },
        { title: 'Next steps', bullets: ['Hire two engineers'] },
      ]),
      'pptx',
    );
    expect(markdown).toBe(
      '# Slide 1: Quarterly review\n\n- Revenue up\n\nNotes: Mention the new region.\n\n# Slide 2: Next steps\n\n- Hire two engineers',
    );
  });

  it('marks each slide as a page, so every chunk says which slides it came from', async () => {
    const marked = await convertMarked(
      pptxFixture([
        { title: 'One', bullets: ['a'] },
        { title: 'Two', bullets: ['b'] },
        { title: 'Three', bullets: ['c'] },
      ]),
      'pptx',
    );
    const { starts } = stripPageMarkers(marked);
    expect(starts.map((s) => s.page)).toEqual([1, 2, 3]);
    expect(splitPages(marked).map((p) => p.text.split('\n')[0])).toEqual([
      '# Slide 1: One',
      '# Slide 2: Two',
      '# Slide 3: Three',
    ]);
  });
});

describe('CSV', () => {
  it('sniffs the delimiter and renders one table, quoted fields intact', async () => {
    const markdown = await convert('name;city\n"Lovelace, Ada";London\nTuring;Wilmslow\n', 'csv');
    expect(markdown).toBe('| name | city |\n| --- | --- |\n| Lovelace, Ada | London |\n| Turing | Wilmslow |');
  });
});
