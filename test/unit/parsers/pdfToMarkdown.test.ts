import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SluiceError } from '../../../contracts/sluiceError';
import { stripPageMarkers } from '../../../chunker/chunkPages';

const withoutPageMarkers = (markdown: string): string => stripPageMarkers(markdown).text;
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { parseToMarkdown } from '../../../parsers/parseToMarkdown';
import { fixturePdf, type FixtureLine } from '../../../testkit/fixtures/pdfFixture';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-pdf-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function parsePdf(bytes: Buffer, limits = DEFAULT_PARSE_LIMITS): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  // The page markers have their own test (pdfPageMarkers.test.ts); these are about the text.
  return withoutPageMarkers(await parseToMarkdown(file, 'pdf', limits));
}

const body = (text: string): FixtureLine => ({ text });

/** A manual-like page: running header, a chapter heading, body lines, a footer page number. */
function manualPage(n: number, lines: FixtureLine[]): FixtureLine[] {
  return [{ text: `Plotting Manual     chapter ${n}`, size: 9 }, ...lines, { text: '' }, { text: String(n), size: 9 }];
}

describe('PDF parsing (in the parse thread)', () => {
  it('recovers headings by font size, joins paragraphs and undoes hyphenation', async () => {
    const markdown = await parsePdf(
      fixturePdf([
        [
          { text: 'Installing Sluice', size: 20 },
          { text: 'Requirements', size: 14 },
          body('The worker needs a recent Node runtime and a reach-'),
          body('able Postgres server before it starts.'),
          { text: '' },
          body('A second paragraph after a gap.'),
          { text: 'Linux', size: 12 },
          body('Use the packaged service unit.'),
        ],
      ]),
    );
    expect(markdown).toBe(
      [
        '# Installing Sluice',
        '## Requirements',
        'The worker needs a recent Node runtime and a reachable Postgres server before it starts.',
        'A second paragraph after a gap.',
        '### Linux',
        'Use the packaged service unit.',
      ].join('\n\n'),
    );
  });

  it('keeps fixed-pitch lines as a fenced code block with their indentation, and bullets as list items', async () => {
    const markdown = await parsePdf(
      fixturePdf([
        [
          { text: 'Examples', size: 16 },
          body('Plot a function:'),
          { text: 'plot sin(x) \\', mono: true },
          { text: 'with lines', mono: true, x: 96 },
          { text: '' },
          body('\u2022 first point'),
          body('\u2022 second point'),
        ],
      ]),
    );
    expect(markdown).toContain('```\nplot sin(x) \\\n    with lines\n```');
    expect(markdown).toContain('- first point\n\n- second point');
  });

  it('drops running headers and page numbers, and continues a paragraph across a page break', async () => {
    const pages = [1, 2, 3, 4].map((n) =>
      manualPage(n, [
        ...(n === 1 ? [{ text: 'Overview', size: 16 }] : []),
        body(`part ${n} of one long sentence that`),
        body(`runs over ${n === 4 ? 'the end.' : 'the page break and'}`),
      ]),
    );
    const markdown = await parsePdf(fixturePdf(pages));
    expect(markdown).not.toMatch(/Plotting Manual|^\d$/m);
    const sentence = [1, 2, 3, 4]
      .map((n) => `part ${n} of one long sentence that runs over`)
      .join(' the page break and ');
    expect(markdown.split('\n\n')).toEqual(['# Overview', `${sentence} the end.`]);
  });

  it.each([
    ['an encrypted PDF', fixturePdf([[body('secret')]], { encrypted: true }), 'ENCRYPTED_DOCUMENT'],
    ['a truncated PDF', fixturePdf([[body('cut off')]]).subarray(0, 300), 'CORRUPT_DOCUMENT'],
    [
      'garbage behind a PDF header',
      Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0x5a), Buffer.from('\n%%EOF\n')]),
      'CORRUPT_DOCUMENT',
    ],
    ['a PDF without any text', fixturePdf([[], []]), 'EMPTY_DOCUMENT'],
  ])('fails %s with its classified code', async (_label, bytes, code) => {
    const failure = parsePdf(bytes);
    await expect(failure).rejects.toBeInstanceOf(SluiceError);
    await expect(failure).rejects.toMatchObject({ code, permanent: true });
  });

  it('stops a parse that exceeds the time limit with PARSE_TIMEOUT', async () => {
    // A text PDF OCRs no page, so it keeps the parse limit, though a PDF may be OCR'd.
    await expect(
      parsePdf(fixturePdf([[body('slow')]]), { ...DEFAULT_PARSE_LIMITS, timeoutMs: 5 }),
    ).rejects.toMatchObject({
      code: 'PARSE_TIMEOUT',
      permanent: true,
      message: expect.stringContaining('(SLUICE_PARSE_TIMEOUT)'),
    });
  });
});
