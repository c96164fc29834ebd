import type { TextContent } from 'pdfjs-dist/types/src/display/api';
import { stripPageMarkers } from '../../../chunker/chunkPages';
import { fencedCode } from '../../../parsers/pdf/codeBlock';
import type { LayoutProfile } from '../../../parsers/pdf/layoutProfile';
import { PdfMarkdownWriter } from '../../../parsers/pdf/markdownWriter';
import { pageLines } from '../../../parsers/pdf/pageLines';
import type { PdfLine } from '../../../parsers/pdf/pdfLine';

const profile: LayoutProfile = {
  bodySize: 10,
  headingLevels: new Map(),
  boldFonts: new Set(),
  headerYs: new Set(),
  footerYs: new Set(),
  runningTexts: new Set(),
};

/** A pdf.js text item of `size`-point text, `advance` em per character, as renderers emit one per word. */
function item(str: string, x: number, y: number, fontName: string, advance: number, size = 10) {
  return {
    str,
    dir: 'ltr',
    transform: [size, 0, 0, size, x, y],
    width: [...str].length * advance * size,
    height: size,
    fontName,
    hasEOL: false,
  };
}

/** Text content whose fonts pdf.js all reports as sans-serif (WeasyPrint leaves the fixed-pitch flag unset). */
function content(items: ReturnType<typeof item>[]): TextContent {
  const style = { fontFamily: 'sans-serif', ascent: 0.9, descent: -0.2, vertical: false };
  return { items, styles: { prose: style, code: style }, lang: null } as unknown as TextContent;
}

/** Proportional widths differ with the letters: roughly what Helvetica gives these words. */
const prose = (str: string, x: number, y: number) => item(str, x, y, 'prose', 0.42 + (str.length % 5) * 0.03);
const code = (str: string, x: number, y: number) => item(str, x, y, 'code', 0.602);

describe('PDF code blocks', () => {
  it('reads a font as fixed-pitch from its uniform advance, without the flag, and keeps columns', () => {
    const lines = pageLines(
      content([
        prose('Run the loop:', 72, 700),
        code('for', 72, 688),
        code('x', 72 + 4 * 6.02, 688),
        code('in', 72 + 6 * 6.02, 688),
        code('xs:', 72 + 9 * 6.02, 688),
        code('print(x)', 72 + 4 * 6.02, 676),
      ]),
    );
    expect(lines.map((line) => [line.text, line.mono])).toEqual([
      ['Run the loop:', false],
      ['for x in xs:', true],
      ['print(x)', true],
    ]);
    const writer = new PdfMarkdownWriter(profile);
    writer.addPage(lines);
    expect(stripPageMarkers(writer.finish()).text).toBe('Run the loop:\n\n```\nfor x in xs:\n    print(x)\n```');
  });

  it('keeps a column gap inside a code line (renderers move the pen instead of writing spaces)', () => {
    const [line] = pageLines(
      content([code('...', 100, 700), code('x', 100 + 8 * 6.02, 700), code('= 0', 100 + 10 * 6.02, 700)]),
    );
    expect(line?.text).toBe('...     x = 0');
  });

  it('does not take a prose line with inline code words for code, nor a proportional font for fixed-pitch', () => {
    const lines = pageLines(
      content([
        prose('Besides the', 72, 700),
        code('while', 130, 700),
        prose('statement just introduced, Python uses the usual flow control', 160, 700),
        prose('Some', 72, 688),
        prose('words', 100, 688),
        prose('of', 130, 688),
      ]),
    );
    expect(lines.map((line) => line.mono)).toEqual([false, false]);
  });

  it('restores the blank lines of a pre block from its baseline gaps', () => {
    const at = (text: string, y: number, page = 1): { line: PdfLine; page: number } => ({
      line: { text, x: 72, y, size: 10, mono: true },
      page,
    });
    expect(fencedCode([at('a = 1', 700), at('b = 2', 688), at('c = 3', 664), at('d = 4', 740, 2)])).toBe(
      '```\na = 1\nb = 2\n\nc = 3\nd = 4\n```',
    );
  });
});
