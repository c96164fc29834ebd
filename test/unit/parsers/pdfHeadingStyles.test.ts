import { buildLayoutProfile } from '../../../parsers/pdf/layoutProfile';
import type { PdfLine } from '../../../parsers/pdf/pageLines';

/** A text-layer line (it has runs) of `size`, set where `y` says. */
function line(text: string, y: number, size = 10, mono = false): PdfLine {
  return { text, x: 72, y, size, mono, runs: [{ text, x: 72, endX: 400, size, font: 'g_d0_f1', mono }] };
}

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
      [12, 1],
      [11, 2],
    ]);
  });

  it('gives no level to a large code font', () => {
    const code = [0, 1, 2].map((i) => line(`call(${i})`, 400 - i * 15, 13, true));
    const profile = buildLayoutProfile([[...section(line('Title', 0, 14)), ...code]]);
    expect([...profile.headingLevels]).toEqual([[14, 1]]);
  });

  it('gives no level to a large lead paragraph running on for lines', () => {
    const lead = [0, 1, 2, 3].map((i) => line('a lead paragraph set large and running on', 400 - i * 14, 12));
    const profile = buildLayoutProfile([[...section(line('Title', 0, 16)), ...lead], section(line('Part', 0, 16))]);
    expect([...profile.headingLevels]).toEqual([[16, 1]]);
  });

  it('asks OCR lines, whose sizes are estimates, for a larger step up', () => {
    const ocr = (pageLines: PdfLine[]) => pageLines.map(({ runs: _runs, ...rest }) => rest);
    const profile = buildLayoutProfile([ocr(section(line('Heading', 0, 11))), ocr(section(line('Title', 0, 14)))]);
    expect([...profile.headingLevels]).toEqual([[14, 1]]);
  });
});
