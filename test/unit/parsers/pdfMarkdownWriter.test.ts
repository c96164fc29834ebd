import { stripPageMarkers } from '../../../chunker/chunkPages';

const withoutPageMarkers = (markdown: string): string => stripPageMarkers(markdown).text;
import type { LayoutProfile } from '../../../parsers/pdf/layoutProfile';
import { PdfMarkdownWriter } from '../../../parsers/pdf/markdownWriter';
import type { PdfLine } from '../../../parsers/pdf/pdfLine';
import { inTime } from '../adversarial/inTime';

const profile: LayoutProfile = {
  bodySize: 10,
  headingLevels: new Map([['16', 1]]),
  boldFonts: new Set(),
  headerYs: new Set(),
  footerYs: new Set(),
  runningTexts: new Set(),
};

/** Lines 12 units apart (the pitch of 10-point text), as one page lays them out. */
function page(texts: string[], mono = false): PdfLine[] {
  return texts.map((text, i) => ({ text, x: 72, y: 1_000_000 - i * 12, size: 10, mono }));
}

describe('PdfMarkdownWriter', () => {
  it('joins lines into paragraphs, undoes hyphenation and fences code', () => {
    const writer = new PdfMarkdownWriter(profile);
    writer.addPage([
      ...page(['A reach-', 'able server', 'and more.']),
      { text: 'Title', x: 72, y: 999_900, size: 16, mono: false },
    ]);
    writer.addPage(page(['npm ci', '```'], true).map((line, i) => ({ ...line, x: 72 + i * 12 })));
    expect(withoutPageMarkers(writer.finish())).toBe(
      'A reachable server and more.\n\n# Title\n\n~~~\nnpm ci\n  ```\n~~~',
    );
  });

  it('fences a code block of hundreds of thousands of lines (no spreading them into a call)', () => {
    const writer = new PdfMarkdownWriter(profile);
    writer.addPage(
      page(
        Array.from({ length: 300_000 }, (_, i) => `line ${i};`),
        true,
      ),
    );
    const lines = withoutPageMarkers(writer.finish()).split('\n');
    expect(lines).toHaveLength(300_002);
    expect(lines[300_000]).toBe('line 299999;');
  });

  it('builds a paragraph of 200,000 lines in linear time', async () => {
    // Each line re-tested the whole paragraph with an end-anchored pattern and flattened it.
    const writer = new PdfMarkdownWriter(profile);
    const texts = Array.from({ length: 200_000 }, (_, i) => (i % 2 === 0 ? `word${i} hyphen-` : `ated${i} text`));
    const markdown = await inTime(() => {
      writer.addPage(page(texts));
      return withoutPageMarkers(writer.finish());
    });
    expect(markdown.startsWith('word0 hyphenated1 text word2 hyphenated3 text')).toBe(true);
    expect(markdown.endsWith('word199998 hyphenated199999 text')).toBe(true);
  });

  it('continues a sentence across 100,000 one-line pages', async () => {
    const writer = new PdfMarkdownWriter(profile);
    const markdown = await inTime(() => {
      for (let i = 0; i < 100_000; i++) writer.addPage(page([`w${i} and`]));
      return withoutPageMarkers(writer.finish());
    });
    expect(markdown.split('\n\n')).toHaveLength(1);
    expect(markdown.endsWith('w99999 and')).toBe(true);
  });

  it('keeps the last body line that shares its height with a footer band, and drops the recurring footer', () => {
    // On full pages the last body line sits at the same height every time: a band of positions
    // alone took it for a footer and dropped it from 36 of R-intro's 52 full pages.
    const lastY = 1_000_000 - 2 * 12;
    const banded: LayoutProfile = {
      ...profile,
      footerYs: new Set([lastY]),
      runningTexts: new Set(['draft manual page #']),
    };
    const writer = new PdfMarkdownWriter(banded);
    writer.addPage(page(['A sentence that runs', 'over three lines on the', 'full page and ends here.']));
    writer.addPage([
      ...page(['Next page text.']),
      { text: 'Draft manual page 2', x: 72, y: lastY, size: 10, mono: false },
    ]);
    expect(withoutPageMarkers(writer.finish())).toBe(
      'A sentence that runs over three lines on the full page and ends here.\n\nNext page text.',
    );
  });

  it('drops a chapter header absent from the sample once it recurs, and one carrying its page number', () => {
    const headerY = 1_000_100;
    const banded: LayoutProfile = { ...profile, headerYs: new Set([headerY]) };
    const writer = new PdfMarkdownWriter(banded);
    const header = (text: string): PdfLine => ({ text, x: 72, y: headerY, size: 10, mono: false });
    writer.addPage([header('Chapter 3: Objects 14'), ...page(['One.'])]);
    writer.addPage([header('Objects and modes'), ...page(['Two.'])]);
    writer.addPage([header('Objects and modes'), ...page(['Three.'])]);
    expect(withoutPageMarkers(writer.finish())).toBe('One.\n\nObjects and modes\n\nTwo.\n\nThree.');
  });
});
