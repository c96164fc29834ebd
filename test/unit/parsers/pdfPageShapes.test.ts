import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Pdfjs } from '../../../parsers/pdf/loadPdfjs';
import { MAX_MARKS, MAX_RULES, readPageShapes } from '../../../parsers/pdf/pageShapes';

/** pdf.js's operator numbers (OPS in pdf.mjs) that readPageShapes looks at. */
const OPS = {
  save: 10,
  restore: 11,
  transform: 12,
  stroke: 20,
  closeStroke: 21,
  fill: 22,
  endPath: 28,
  paintFormXObjectBegin: 74,
  paintFormXObjectEnd: 75,
  constructPath: 91,
};
const pdfjs = { OPS } as unknown as Pdfjs;
const [MOVE, LINE, CLOSE] = [0, 1, 4];

/** A page whose operator list is `ops` ([fn, args] pairs), as pdf.js 5 hands it over. */
function page(ops: [number, unknown[] | null][]): PDFPageProxy {
  const fnArray = ops.map(([fn]) => fn);
  const argsArray = ops.map(([, args]) => args);
  return { getOperatorList: () => Promise.resolve({ fnArray, argsArray }) } as unknown as PDFPageProxy;
}
const path = (paint: number, ...data: number[]): [number, unknown[]] => [
  OPS.constructPath,
  [paint, [new Float32Array(data)], null],
];
const rectangle = (x: number, y: number, w: number, h: number): number[] => [
  MOVE,
  x,
  y,
  LINE,
  x + w,
  y,
  LINE,
  x + w,
  y + h,
  LINE,
  x,
  y + h,
  CLOSE,
];

describe('readPageShapes', () => {
  it('reads stroked lines, thin fills and glyph-sized fills in page units, through save, restore and transform', async () => {
    const shapes = await readPageShapes(
      pdfjs,
      page([
        [OPS.save, null],
        [OPS.transform, [2, 0, 0, 2, 100, 50]],
        path(OPS.stroke, MOVE, 0, 0, LINE, 50, 0),
        [OPS.restore, null],
        path(OPS.fill, ...rectangle(10, 700, 200, 1)),
        path(OPS.fill, ...rectangle(20, 600, 5, 5)),
        path(OPS.endPath, ...rectangle(0, 0, 300, 300)),
        path(OPS.fill, ...rectangle(0, 0, 612, 792)),
        [OPS.paintFormXObjectBegin, [[1, 0, 0, 1, 300, 0], null]],
        path(OPS.stroke, ...rectangle(10, 10, 100, 20)),
        [OPS.paintFormXObjectEnd, null],
      ]),
    );
    expect(shapes.rules).toEqual([
      { x1: 100, y1: 50, x2: 200, y2: 50 },
      { x1: 10, y1: 700.5, x2: 210, y2: 700.5 },
      { x1: 310, y1: 10, x2: 410, y2: 10 },
      { x1: 410, y1: 10, x2: 410, y2: 30 },
      { x1: 310, y1: 30, x2: 410, y2: 30 },
      { x1: 310, y1: 10, x2: 310, y2: 30 },
    ]);
    expect(shapes.marks).toEqual([{ x: 20, y: 600, width: 5, height: 5 }]);
  });

  it('examines a bounded share of a hostile page and keeps a bounded number of shapes', async () => {
    const ops: [number, unknown[] | null][] = [];
    for (let i = 0; i < 300_000; i++) ops.push(path(OPS.fill, ...rectangle(i % 500, i % 700, 4, 4)));
    for (let i = 0; i < 300_000; i++) ops.push(path(OPS.stroke, MOVE, 0, i % 700, LINE, 300, i % 700));
    const started = process.hrtime.bigint();
    const shapes = await readPageShapes(pdfjs, page(ops));
    expect(shapes.marks).toHaveLength(MAX_MARKS);
    // The coordinates of 300,000 paths use up the work allowed before the strokes are reached.
    expect(shapes.rules).toHaveLength(0);
    expect(shapes.rules.length).toBeLessThanOrEqual(MAX_RULES);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000);
  });
});
