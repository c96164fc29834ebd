import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Pdfjs } from './loadPdfjs';
import type { PageShapes, PdfMark, PdfRule } from './pageGeometry';
import { walkOperators } from './operatorWalk';
import { isPaint, isStroke, pathBoxes } from './pathBoxes';

/**
 * Operators plus path coordinates examined per page: a hostile page of millions of path
 * operators costs this much and no more; a page of real tables has a few thousand.
 */
export const MAX_SHAPE_WORK = 1_000_000;
/** Rules and marks kept per page: beyond this, more are noise, and memory stays bounded. */
export const MAX_RULES = 4_000;
export const MAX_MARKS = 1_000;
/** A filled rectangle no thicker than this (PDF units) is a border line: browsers draw borders as fills. */
const THIN = 2.5;
/** A filled shape within these bounds on both sides is a glyph-sized mark (bullet), not a border. */
const MARK_MIN = 1.5;
const MARK_MAX = 9;
/**
 * A filled box at most this tall (about three lines) is a row's or a cell's background, whose
 * edges separate rows; a taller one is the background of a code block, a section or the page.
 */
const MAX_ROW_FILL = 40;

/**
 * The rules and marks a page draws, in page units. pdf.js 5 hands each painted path over as
 * one `constructPath` operator (`[paintOp, [coordinates], minMax]`, coordinates in user space),
 * so the current transform is followed through save, restore, transform and form XObjects.
 * Stroked segments along an axis and thin fills become rules; a filled rectangle's edges are
 * rules too (cell backgrounds separate rows); small fills become marks. Linear in the
 * operators examined, which are capped, as are the shapes kept.
 */
export async function readPageShapes(pdfjs: Pdfjs, page: PDFPageProxy): Promise<PageShapes> {
  const { OPS } = pdfjs;
  const list = await page.getOperatorList();
  const rules: PdfRule[] = [];
  const marks: PdfMark[] = [];
  let work = 0;
  walkOperators(OPS, list, (fn, args, ctm) => {
    work++;
    if (fn !== OPS.constructPath || !args) return work < MAX_SHAPE_WORK;
    const paint = args[0] as number;
    const data = (args[1] as (Float32Array | null)[] | undefined)?.[0];
    if (!data || !isPaint(OPS, paint)) return work < MAX_SHAPE_WORK;
    const stroked = isStroke(OPS, paint);
    const boxes = pathBoxes(data, ctm, stroked, MAX_SHAPE_WORK - work);
    work += data.length;
    for (const box of boxes) {
      const width = box.x2 - box.x1;
      const height = box.y2 - box.y1;
      const markSized = width >= MARK_MIN && height >= MARK_MIN && width <= MARK_MAX && height <= MARK_MAX;
      // A small stroked circle is a nested list's hollow bullet, not a rule.
      if (stroked && box.curved && markSized) {
        if (marks.length < MAX_MARKS) marks.push({ x: box.x1, y: box.y1, width, height });
      } else if (stroked || width <= THIN || height <= THIN) {
        if (width > THIN || height > THIN) rules.push(centerLine(box, width, height));
      } else if (box.curved || (width <= MARK_MAX && height <= MARK_MAX)) {
        if (markSized && marks.length < MAX_MARKS) marks.push({ x: box.x1, y: box.y1, width, height });
      } else if (height <= MAX_ROW_FILL) {
        rules.push(
          { x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y1 },
          { x1: box.x1, y1: box.y2, x2: box.x2, y2: box.y2 },
          { x1: box.x1, y1: box.y1, x2: box.x1, y2: box.y2 },
          { x1: box.x2, y1: box.y1, x2: box.x2, y2: box.y2 },
        );
      }
    }
    return work < MAX_SHAPE_WORK && rules.length < MAX_RULES;
  });
  return { rules: rules.slice(0, MAX_RULES), marks };
}

/** A thin box (a stroked segment or a border fill) as the line along its longer side. */
function centerLine(box: { x1: number; y1: number; x2: number; y2: number }, width: number, height: number): PdfRule {
  if (width >= height) {
    const y = (box.y1 + box.y2) / 2;
    return { x1: box.x1, y1: y, x2: box.x2, y2: y };
  }
  const x = (box.x1 + box.x2) / 2;
  return { x1: x, y1: box.y1, x2: x, y2: box.y2 };
}
