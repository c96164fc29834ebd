import type { TextContent } from 'pdfjs-dist/types/src/display/api';
import { stripPageMarkers } from '../../../chunker/chunkPages';
import type { LayoutProfile } from '../../../parsers/pdf/layoutProfile';
import { listItem } from '../../../parsers/pdf/listMarkers';
import { PdfMarkdownWriter } from '../../../parsers/pdf/markdownWriter';
import { attachMarkers } from '../../../parsers/pdf/markerLines';
import { pageLines } from '../../../parsers/pdf/pageLines';
import type { PdfLine, PdfRun } from '../../../parsers/pdf/pdfLine';
import { readingOrder } from '../../../parsers/pdf/readingOrder';
import { withShapeBullets } from '../../../parsers/pdf/shapeBullets';

const profile: LayoutProfile = {
  bodySize: 10,
  headingLevels: new Map([['16', 1]]),
  boldFonts: new Set(),
  headerYs: new Set(),
  footerYs: new Set(),
  runningTexts: new Set(),
};

/** A line of 10-point runs, each `[text, x]`, about 5 units per character. */
function line(y: number, ...runs: [string, number][]): PdfLine {
  const pdfRuns: PdfRun[] = runs.map(([text, x]) => ({
    text,
    x,
    endX: x + text.length * 5,
    size: 10,
    font: 'f1',
    mono: false,
  }));
  const sorted = [...pdfRuns].sort((p, q) => p.x - q.x);
  return {
    text: sorted.map((run) => run.text).join(' '),
    x: sorted[0]?.x ?? 0,
    y,
    size: 10,
    mono: false,
    runs: pdfRuns,
  };
}

function markdown(...pages: PdfLine[][]): string {
  const writer = new PdfMarkdownWriter(profile);
  for (const lines of pages) writer.addPage(lines);
  return stripPageMarkers(writer.finish()).text;
}

describe('PDF list markers', () => {
  it.each([
    ['•', null],
    ['◦', null],
    ['▪', null],
    ['\uf0b7', null],
    ['–', null],
    ['*', null],
    ['1.', 1],
    ['12)', 12],
    ['b.', 2],
    ['(c)', 3],
    ['iv.', 4],
    ['(ii)', 2],
  ])('reads %s as a marker set apart from its text', (marker, ordinal) => {
    expect(listItem(line(700, [marker, 80], ['the item', 92]))).toEqual({ ordinal, text: 'the item' });
  });

  it('reads a number written after its item in the stream', () => {
    expect(listItem(line(700, ['the item', 92], ['2.', 80]))).toEqual({ ordinal: 2, text: 'the item' });
  });

  it('does not read a number or a dash inside a run as a marker (a wrapped sentence)', () => {
    expect(listItem(line(700, ['2. The second sentence', 72]))).toBeNull();
    expect(listItem(line(700, ['- and a dash', 72]))).toBeNull();
    expect(listItem(line(700, ['17.4.1.', 72], ['configure Options', 110]))).toBeNull();
  });

  it('writes numbered and nested items, joins wrapped lines to their item and ends the list at a paragraph', () => {
    expect(
      markdown([
        line(700, ['1.', 72], ['Configure the source tree for your system and', 84]),
        line(688, ['source tree.', 84]),
        line(676, ['•', 84], ['first option', 96]),
        line(664, ['◦', 96], ['its sub-option', 108]),
        line(652, ['•', 84], ['second option', 96]),
        line(640, ['2.', 72], ['Build', 84]),
        line(610, ['After the list.', 72]),
      ]),
    ).toBe(
      [
        '1. Configure the source tree for your system and source tree.',
        '   - first option',
        '     - its sub-option',
        '   - second option',
        '2. Build',
        'After the list.',
      ].join('\n\n'),
    );
  });

  it('ends an item at a short line: a numbered heading is not joined to the paragraph under it', () => {
    expect(
      markdown([
        line(700, ['2.', 72], ['Approximate comparison', 84]),
        line(688, ['Dealing with typographical error can be vitally important in record', 84]),
        line(676, ['linkage, and so on.', 72]),
      ]),
    ).toBe(
      '2. Approximate comparison\n\nDealing with typographical error can be vitally important in record linkage, and so on.',
    );
  });

  it('numbers a letter list past h: i. is the ninth item there, and (ii) a roman numeral', () => {
    expect(
      markdown([
        line(700, ['h.', 72], ['Eighth.', 84]),
        line(680, ['i.', 72], ['Ninth.', 84]),
        line(660, ['i.', 96], ['Roman one.', 108]),
        line(640, ['ii.', 96], ['Roman two.', 108]),
      ]),
    ).toBe('8. Eighth.\n\n9. Ninth.\n\n   1. Roman one.\n\n   2. Roman two.');
  });

  it('reads a dash or star as a marker only with a gap wider than a word space after it', () => {
    expect(listItem(line(700, ['*', 72], ['ret_len, unsigned char * str', 77.5]))).toBeNull();
    expect(listItem(line(700, ['-', 72], ['an item', 84]))).toEqual({ ordinal: null, text: 'an item' });
  });

  it('continues an item across a page break', () => {
    expect(markdown([line(100, ['•', 72], ['an item that runs', 84])], [line(700, ['onto the next page', 84])])).toBe(
      '- an item that runs onto the next page',
    );
  });
});

describe('PDF list markers written apart', () => {
  it('joins a marker written after the page text to the item on its baseline', () => {
    const lines = attachMarkers([
      line(700, ['Configuration', 92]),
      line(680, ['The first step.', 92]),
      line(660, ['Build', 92]),
      line(700.2, ['1.', 77]),
      line(660, ['2.', 77]),
    ]);
    expect(lines.map((l) => [l.text, l.x])).toEqual([
      ['1. Configuration', 77],
      ['The first step.', 92],
      ['2. Build', 77],
    ]);
    expect(listItem(lines[0]!)).toEqual({ ordinal: 1, text: 'Configuration' });
  });

  it('leaves a lone dash or number written before the line beside it (a table cell) apart', () => {
    const cells = [line(700, ['-', 72]), line(700, ['no default', 90]), line(688, ['3.', 72]), line(688, ['rows', 90])];
    expect(attachMarkers(cells)).toEqual(cells);
  });

  it('reads a line left to right when its marker comes after its text in the stream', () => {
    const item = (str: string, x: number) => ({
      str,
      dir: 'ltr',
      transform: [10, 0, 0, 10, x, 700],
      width: str.length * 5,
      height: 10,
      fontName: 'f1',
      hasEOL: false,
    });
    const content = { items: [item('item text', 84), item('•', 72)], styles: {}, lang: null };
    const [read] = pageLines(content as unknown as TextContent);
    expect([read?.text, read?.x]).toEqual(['• item text', 72]);
  });
});

describe('PDF reading order', () => {
  it('puts a single-column page top to bottom when blocks come out of order', () => {
    const lines = [
      line(700, ['Perhaps the statement, for example:', 72]),
      line(600, ['After the code.', 72]),
      line(650, ['x = 1', 80]),
    ];
    expect(readingOrder(lines).map((l) => l.y)).toEqual([700, 650, 600]);
  });

  it('moves a block written late as a whole, and leaves side-by-side cells in stream order', () => {
    const late = [
      line(700, ['For example:', 72]),
      line(600, ['There can be more parts.', 72]),
      line(680, ['if x < 0:', 80]),
      line(668, ['x = 0', 96]),
    ];
    expect(readingOrder(late).map((l) => l.text)).toEqual([
      'For example:',
      'if x < 0:',
      'x = 0',
      'There can be more parts.',
    ]);
    const cells = [
      line(700, ['Mean-', 72]),
      line(688, ['ing', 72]),
      line(700, ['File or directory', 200]),
      line(688, ['name', 200]),
    ];
    expect(readingOrder(cells)).toEqual(cells);
  });

  it('keeps the stream order of a page set in two columns', () => {
    const lines = [
      line(700, ['left column first line', 72]),
      line(688, ['left column second line', 72]),
      line(700, ['right column first line', 320]),
      line(688, ['right column second line', 320]),
    ];
    expect(readingOrder(lines)).toEqual(lines);
  });
});

describe('PDF shape bullets', () => {
  const mark = (x: number, y: number) => ({ x, y, width: 3.5, height: 3.5 });

  it('makes lines with a small mark just left of them, in their x-height band, bullet items', () => {
    const lines = [
      line(700, ['Intro text.', 72]),
      line(688, ['first', 84]),
      line(676, ['second, which is long enough to wrap', 84]),
      line(664, ['wrapped', 84]),
    ];
    const marked = withShapeBullets(lines, [mark(75, 690), mark(75, 678), mark(300, 666), mark(75, 640)]);
    expect(marked.map((l) => l.text)).toEqual([
      'Intro text.',
      '• first',
      '• second, which is long enough to wrap',
      'wrapped',
    ]);
    expect(markdown(marked)).toBe('Intro text.\n\n- first\n\n- second, which is long enough to wrap wrapped');
  });
});
