import type { PdfRule } from '../../../parsers/pdf/pageGeometry';
import type { PdfLine } from '../../../parsers/pdf/pdfLine';
import { pathBoxes } from '../../../parsers/pdf/pathBoxes';
import { alignedTables } from '../../../parsers/pdf/tables/alignedTables';
import { OpenTable } from '../../../parsers/pdf/tables/openTable';
import { isPdfTable } from '../../../parsers/pdf/tables/pdfTable';
import { mayHoldTable, placeTables } from '../../../parsers/pdf/tables/placeTables';

const SIZE = 10;

/** A line at baseline `y` whose cells start at the given x positions (each about 5 units a character). */
function line(y: number, cells: [number, string][], mono = false): PdfLine {
  const runs = cells.map(([x, text]) => ({ text, x, endX: x + text.length * 5, size: SIZE, font: 'f1', mono }));
  return { text: cells.map(([, text]) => text).join(' '), x: cells[0]![0], y, size: SIZE, mono, runs };
}

/** Stroked rules of a full grid. */
function grid(xs: number[], ys: number[]): PdfRule[] {
  const rules: PdfRule[] = [];
  for (const x of xs) rules.push({ x1: x, y1: Math.min(...ys), x2: x, y2: Math.max(...ys) });
  for (const y of ys) rules.push({ x1: Math.min(...xs), y1: y, x2: Math.max(...xs), y2: y });
  return rules;
}

const tables = (items: ReturnType<typeof placeTables>) => items.filter(isPdfTable).map((table) => table.rows);

describe('PDF table detection', () => {
  it('reads a ruled grid into rows and columns, placed where its first line stood', () => {
    const lines = [
      line(700, [[50, 'Before the table.']]),
      line(680, [
        [50, 'Key'],
        [150, 'Value'],
      ]),
      line(665, [
        [50, 'alpha'],
        [150, 'one'],
      ]),
      line(650, [
        [50, 'beta'],
        [150, 'two'],
      ]),
      line(630, [[50, 'After it.']]),
    ];
    const items = placeTables(lines, { rules: grid([45, 140, 300], [692, 677, 662, 647]), marks: [] });
    expect(items.map((item) => (isPdfTable(item) ? item.rows : item.text))).toEqual([
      'Before the table.',
      [
        ['Key', 'Value'],
        ['alpha', 'one'],
        ['beta', 'two'],
      ],
      'After it.',
    ]);
  });

  it('keeps a cell’s wrapped lines in that cell, in reading order, even when written out of order', () => {
    const lines = [
      line(680, [
        [50, 'Key'],
        [150, 'Value'],
      ]),
      line(665, [[50, 'alpha']]),
      line(672, [[150, 'first half']]),
      line(660, [[150, 'second half']]),
      line(640, [
        [50, 'beta'],
        [150, 'two'],
      ]),
    ];
    const rules = grid([45, 140, 300], [692, 677, 652, 637]);
    expect(tables(placeTables(lines, { rules, marks: [] }))).toEqual([
      [
        ['Key', 'Value'],
        ['alpha', 'first half second half'],
        ['beta', 'two'],
      ],
    ]);
  });

  it('writes a cell merged across columns once, and one merged down rows in each row it spans', () => {
    const lines = [
      line(680, [
        [50, 'Group'],
        [150, 'Name'],
      ]),
      line(665, [
        [50, 'Numbers'],
        [150, 'int'],
      ]),
      line(650, [[150, 'float']]),
      line(635, [[50, 'A note across the whole table']]),
    ];
    const rules = grid([45, 140, 300], [692, 677, 662, 647, 632]).filter(
      (rule) => !(rule.y1 === 662 && rule.y2 === 662) && !(rule.x1 === 140 && rule.x2 === 140),
    );
    rules.push({ x1: 140, y1: 647, x2: 140, y2: 692 }, { x1: 140, y1: 662, x2: 300, y2: 662 });
    expect(tables(placeTables(lines, { rules, marks: [] }))).toEqual([
      [
        ['Group', 'Name'],
        ['Numbers', 'int'],
        ['Numbers', 'float'],
        ['A note across the whole table', ''],
      ],
    ]);
  });

  it('is no table when a grid holds text in one column only, or a run crosses a column rule', () => {
    const boxed = [line(680, [[50, 'A note inside a box.']]), line(665, [[50, 'More of the note.']])];
    expect(tables(placeTables(boxed, { rules: grid([45, 140, 300], [692, 677, 662]), marks: [] }))).toEqual([]);
    const crossing = [
      line(680, [[50, 'A banner runs across the whole width']]),
      line(665, [
        [50, 'alpha'],
        [150, 'one'],
      ]),
    ];
    expect(tables(placeTables(crossing, { rules: grid([45, 140, 300], [692, 677, 662]), marks: [] }))).toEqual([]);
  });

  it('does not split a cell at a link’s underline', () => {
    const lines = [
      line(680, [
        [50, 'Key'],
        [150, 'Value'],
      ]),
      line(665, [
        [50, 'alpha'],
        [142, 'a linked name here'],
      ]),
      line(653, [[150, 'and more']]),
      line(636, [
        [50, 'beta'],
        [150, 'two'],
      ]),
    ];
    const underline = { x1: 142, y1: 663.5, x2: 232, y2: 663.5 };
    const rules = [...grid([45, 140, 300], [692, 677, 647, 632]), underline];
    expect(tables(placeTables(lines, { rules, marks: [] }))[0]).toEqual([
      ['Key', 'Value'],
      ['alpha', 'a linked name here and more'],
      ['beta', 'two'],
    ]);
  });

  it('finds aligned columns without rules, but not in prose side by side, code, or two rows', () => {
    const aligned = [0, 1, 2, 3].map((i) =>
      line(700 - i * 12, [
        [50, `name${i}`],
        [150, `${i * 10}`],
        [250, `note ${i}`],
      ]),
    );
    expect(alignedTables(aligned).map((found) => found.table.rows)).toEqual([
      [
        ['name0', '0', 'note 0'],
        ['name1', '10', 'note 1'],
        ['name2', '20', 'note 2'],
        ['name3', '30', 'note 3'],
      ],
    ]);
    expect(alignedTables(aligned.slice(0, 2))).toEqual([]);
    const prose = [0, 1, 2, 3].map((i) =>
      line(700 - i * 12, [
        [50, 'the left column of a page runs on as prose'],
        [320, 'and so does the right column of the same page'],
      ]),
    );
    expect(alignedTables(prose)).toEqual([]);
    const code = aligned.map((row) => ({ ...row, mono: true }));
    expect(alignedTables(code)).toEqual([]);
  });

  it('reads the operator list only for pages whose text may hold a table', () => {
    const paragraph = [0, 1, 2, 3].map((i) => line(700 - i * 12, [[50, 'plain running text of a paragraph']]));
    expect(mayHoldTable(paragraph)).toBe(false);
    const cellByCell = [700, 712, 688, 700, 676, 688, 664, 676, 652, 664, 640, 652].map((y, i) =>
      line(y, [[i % 2 === 0 ? 50 : 150, `cell ${i}`]]),
    );
    expect(mayHoldTable(cellByCell)).toBe(true);
  });

  it('continues a table on the next page only with the same columns, dropping its repeated header', () => {
    const open = new OpenTable(
      {
        rows: [
          ['K', 'V'],
          ['a', '1'],
        ],
        columns: [45, 140],
      },
      1,
    );
    expect(
      open.continueWith(
        {
          rows: [
            ['K', 'V'],
            ['b', '2'],
          ],
          columns: [45, 141],
        },
        1,
      ),
    ).toBe(false);
    expect(open.continueWith({ rows: [['K', 'V', 'W']], columns: [45, 140, 200] }, 2)).toBe(false);
    expect(
      open.continueWith(
        {
          rows: [
            ['K', 'V'],
            ['b', '2|3'],
          ],
          columns: [45, 141],
        },
        2,
      ),
    ).toBe(true);
    expect(open.markdown()).toBe('| K | V |\n| --- | --- |\n| a | 1 |\n| b | 2\\|3 |');
  });

  it('reads boxes from pdf.js path data under the current transform, and bounds the coordinates it reads', () => {
    // moveTo 0 0, lineTo 10 0, lineTo 10 2, lineTo 0 2, closePath; scaled ×2 and moved by (100, 50).
    const rectangle = new Float32Array([0, 0, 0, 1, 10, 0, 1, 10, 2, 1, 0, 2, 4]);
    expect(pathBoxes(rectangle, [2, 0, 0, 2, 100, 50], false)).toEqual([
      { x1: 100, y1: 50, x2: 120, y2: 54, curved: false },
    ]);
    expect(pathBoxes(rectangle, [1, 0, 0, 1, 0, 0], true).length).toBe(4);
    expect(pathBoxes(rectangle, [1, 0, 0, 1, 0, 0], false, 3)).toEqual([{ x1: 0, y1: 0, x2: 0, y2: 0, curved: false }]);
  });
});
