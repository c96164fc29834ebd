import type { LayoutProfile } from '../../../parsers/pdf/layoutProfile';
import { PdfMarkdownWriter } from '../../../parsers/pdf/markdownWriter';
import type { PdfLine } from '../../../parsers/pdf/pageLines';
import { inTime } from '../adversarial/inTime';

const profile: LayoutProfile = { bodySize: 10, headingLevels: new Map([[16, 1]]), headerYs: new Set(), footerYs: new Set() };

/** Lines 12 units apart (the pitch of 10-point text), as one page lays them out. */
function page(texts: string[], mono = false): PdfLine[] {
  return texts.map((text, i) => ({ text, x: 72, y: 1_000_000 - i * 12, size: 10, mono }));
}

describe('PdfMarkdownWriter', () => {
  it('joins lines into paragraphs, undoes hyphenation and fences code', () => {
    const writer = new PdfMarkdownWriter(profile);
    writer.addPage([...page(['A reach-', 'able server', 'and more.']), { text: 'Title', x: 72, y: 999_900, size: 16, mono: false }]);
    writer.addPage(page(['npm ci', '```'], true).map((line, i) => ({ ...line, x: 72 + i * 12 })));
    expect(writer.finish()).toBe('A reachable server and more.\n\n# Title\n\n~~~\nnpm ci\n  ```\n~~~');
  });

  it('fences a code block of hundreds of thousands of lines (no spreading them into a call)', () => {
    const writer = new PdfMarkdownWriter(profile);
    writer.addPage(page(Array.from({ length: 300_000 }, (_, i) => `line ${i};`), true));
    const lines = writer.finish().split('\n');
    expect(lines).toHaveLength(300_002);
    expect(lines[300_000]).toBe('line 299999;');
  });

  it('builds a paragraph of 200,000 lines in linear time', async () => {
    // Each line re-tested the whole paragraph with an end-anchored pattern and flattened it.
    const writer = new PdfMarkdownWriter(profile);
    const texts = Array.from({ length: 200_000 }, (_, i) => (i % 2 === 0 ? `word${i} hyphen-` : `ated${i} text`));
    const markdown = await inTime(() => {
      writer.addPage(page(texts));
      return writer.finish();
    });
    expect(markdown.startsWith('word0 hyphenated1 text word2 hyphenated3 text')).toBe(true);
    expect(markdown.endsWith('word199998 hyphenated199999 text')).toBe(true);
  });

  it('continues a sentence across 100,000 one-line pages', async () => {
    const writer = new PdfMarkdownWriter(profile);
    const markdown = await inTime(() => {
      for (let i = 0; i < 100_000; i++) writer.addPage(page([`w${i} and`]));
      return writer.finish();
    });
    expect(markdown.split('\n\n')).toHaveLength(1);
    expect(markdown.endsWith('w99999 and')).toBe(true);
  });
});
