import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { splitPages } from '../../../chunker/pageMarkers';
import { stripPageMarkers } from '../../../chunker/chunkPages';

const withoutPageMarkers = (markdown: string): string => stripPageMarkers(markdown).text;
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { parseToMarkdown } from '../../../parsers/parseToMarkdown';
import { fixturePdf } from '../../../testkit/fixtures/pdfFixture';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-pdf-pages-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('PDF page markers (for the page strategy)', () => {
  it('marks each page before its first block; a paragraph running on stays whole, on the page it starts', async () => {
    const file = path.join(dir, 'three-pages.pdf');
    await writeFile(
      file,
      fixturePdf([
        [{ text: 'Forms', size: 20 }, { text: 'The first page starts a sentence that' }],
        [{ text: 'goes on here.' }, { text: '' }, { text: 'Second page paragraph.' }],
        [{ text: 'Third page only.' }],
      ]),
    );
    const markdown = await parseToMarkdown(file, 'pdf', DEFAULT_PARSE_LIMITS);
    expect(splitPages(markdown)).toEqual([
      { page: 1, text: '# Forms\n\nThe first page starts a sentence that goes on here.' },
      { page: 2, text: 'Second page paragraph.' },
      { page: 3, text: 'Third page only.' },
    ]);
    // Without the markers: the markdown the parser wrote before they existed.
    expect(withoutPageMarkers(markdown)).toBe(
      '# Forms\n\nThe first page starts a sentence that goes on here.\n\nSecond page paragraph.\n\nThird page only.',
    );
  });
});
