import { buildLayoutProfile, headingLevel } from '../../../parsers/pdf/layoutProfile';
import type { PdfLine } from '../../../parsers/pdf/pdfLine';

/** A text-layer line (it has runs) of `size` in `font`, set where `y` says. */
function line(text: string, y: number, size = 10, mono = false, font = 'regular'): PdfLine {
  return { text, x: 72, y, size, mono, runs: [{ text, x: 72, endX: 400, size, font, mono }] };
}

const BOLD = new Set(['bold']);

/** A page: a heading of `size` above a paragraph of six body lines at a 12-unit pitch. */
function section(heading: PdfLine, top = 700): PdfLine[] {
  const body = Array.from({ length: 6 }, (_, i) =>
    line('running text of the body that fills the whole measure of the page', top - 30 - i * 12),
  );
  return [{ ...heading, y: top }, ...body];
}

describe('heading levels from sampled pages', () => {
  it('ranks sizes a tenth above the body as levels, largest first', () => {
    const profile = buildLayoutProfile([
      section(line('1. Title', 0, 12)),
      section(line('1.1. Section', 0, 11)),
      section(line('1.2. Another section', 0, 11)),
    ]);
    expect([...profile.headingLevels]).toEqual([
      ['12', 1],
      ['11', 2],
    ]);
  });

  it('gives no level to a large code font', () => {
    const code = [0, 1, 2].map((i) => line(`call(${i})`, 400 - i * 15, 13, true));
    const profile = buildLayoutProfile([[...section(line('Title', 0, 14)), ...code]]);
    expect([...profile.headingLevels]).toEqual([['14', 1]]);
  });

  it('gives no level to a large lead paragraph running on for lines', () => {
    const lead = [0, 1, 2, 3].map((i) => line('a lead paragraph set large and running on', 400 - i * 14, 12));
    const profile = buildLayoutProfile([[...section(line('Title', 0, 16)), ...lead], section(line('Part', 0, 16))]);
    expect([...profile.headingLevels]).toEqual([['16', 1]]);
  });

  it('asks OCR lines, whose sizes are estimates, for a larger step up', () => {
    const ocr = (pageLines: PdfLine[]) => pageLines.map(({ runs: _runs, ...rest }) => rest);
    const profile = buildLayoutProfile([ocr(section(line('Heading', 0, 11))), ocr(section(line('Title', 0, 14)))]);
    expect([...profile.headingLevels]).toEqual([['14', 1]]);
  });

  it('ranks bold at the body size below the larger sizes, and takes it for a heading', () => {
    const profile = buildLayoutProfile(
      [section(line('Title', 0, 14, false, 'bold')), section(line('8.1.1.1. A subsection', 0, 10, false, 'bold'))],
      BOLD,
    );
    expect([...profile.headingLevels]).toEqual([
      ['14 bold', 1],
      ['10 bold', 2],
    ]);
    expect(headingLevel(profile, line('8.1.1.2. Another', 0, 10, false, 'bold'))).toBe(2);
    expect(headingLevel(profile, line('8.1.1.2. Another', 0, 10))).toBeNull();
  });

  it('takes no bold list lead, run-in label or table header row at the body size for a heading', () => {
    const profile = buildLayoutProfile([section(line('A subsection', 0, 10, false, 'bold'))], BOLD);
    const cells: PdfLine = {
      ...line('Value Meaning', 0, 10, false, 'bold'),
      runs: [
        { text: 'Value', x: 72, endX: 100, size: 10, font: 'bold', mono: false },
        { text: 'Meaning', x: 200, endX: 240, size: 10, font: 'bold', mono: false },
      ],
    };
    for (const lead of [line('3. Stop both servers', 0, 10, false, 'bold'), line('Note:', 0, 10, false, 'bold'), cells])
      expect(headingLevel(profile, lead)).toBeNull();
  });
});
