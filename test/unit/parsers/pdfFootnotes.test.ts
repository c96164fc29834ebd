import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { splitPages } from '../../../chunker/pageMarkers';
import { parseToMarkdown } from '../../../parsers/parseToMarkdown';
import { fixturePdf, type FixtureLine } from '../../../testkit/fixtures/pdfFixture';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-pdf-notes-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const body = (text: string): FixtureLine => ({ text });
const note = (text: string): FixtureLine => ({ text, size: 8 });

describe('PDF footnotes', () => {
  it('writes a page’s footnotes after the paragraph that runs on past them, not in its middle', async () => {
    const file = path.join(dir, 'notes.pdf');
    await writeFile(
      file,
      fixturePdf([
        [
          body('A first paragraph that ends here.'),
          { text: '' },
          body('The second paragraph cites a source1 and'),
          body('keeps going to the bottom of the page, where'),
          { text: '' },
          note('1 The source, page 12, with a note that'),
          note('wraps onto a second line.'),
          note('2 A second note.'),
        ],
        [body('it ends on the next page.'), { text: '' }, body('Another paragraph.')],
      ]),
    );
    const pages = splitPages(await parseToMarkdown(file, 'pdf'));
    expect(pages).toEqual([
      {
        page: 1,
        text: [
          'A first paragraph that ends here.',
          'The second paragraph cites a source1 and keeps going to the bottom of the page, where it ends on the next page.',
          '1 The source, page 12, with a note that wraps onto a second line.',
          '2 A second note.',
        ].join('\n\n'),
      },
      { page: 2, text: 'Another paragraph.' },
    ]);
  });

  it('leaves small print that does not start with a note mark in place', async () => {
    const file = path.join(dir, 'small.pdf');
    await writeFile(
      file,
      fixturePdf([[body('Body text on the page.'), { text: '' }, note('Small print without a mark.')]]),
    );
    expect(splitPages(await parseToMarkdown(file, 'pdf')).map(({ text }) => text)).toEqual([
      'Body text on the page.\n\nSmall print without a mark.',
    ]);
  });
});
