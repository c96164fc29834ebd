import { spaceRunThenWord, trailingWhitespaceLines } from '../../../bench/adversarialInputs';
import { textToMarkdown } from '../../../parsers/textToMarkdown';
import { inTime } from '../adversarial/inTime';

const TEXT = 'First line\r\nsecond line\r\n\r\n\r\n\r\nNext paragraph: 文档切分\r\n';

describe('textToMarkdown', () => {
  it.each([
    ['UTF-8', Buffer.from(TEXT, 'utf8')],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(TEXT, 'utf8')])],
    ['UTF-16 LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TEXT, 'utf16le')])],
    ['UTF-16 BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(TEXT, 'utf16le').swap16()])],
  ])('decodes %s, normalises line endings and keeps paragraphs', (_encoding, bytes) => {
    expect(textToMarkdown(bytes)).toBe('First line\nsecond line\n\nNext paragraph: 文档切分');
  });

  it('keeps plain-text lines that look like headings from becoming sections', () => {
    expect(textToMarkdown(Buffer.from('# not a heading\n#hashtag stays\n'))).toBe('\\# not a heading\n#hashtag stays');
  });

  it('trims trailing whitespace and keeps the other lines as they are', () => {
    expect(textToMarkdown(Buffer.from('  indented  \t\nnext\t \r\n\n\n\n  # spaced heading\n#\n'))).toBe(
      'indented\nnext\n\n  \\# spaced heading\n\\#',
    );
  });

  it('drops long whitespace runs in linear time', async () => {
    // `/[ \t]+$/gm` rescanned the run from every start: 100,000 spaces took 47 s.
    expect(await inTime(() => textToMarkdown(spaceRunThenWord(300_000)))).toBe('word');
    expect(await inTime(() => textToMarkdown(trailingWhitespaceLines(300_000)))).toBe('first\nsecond\nthird');
  });
});
