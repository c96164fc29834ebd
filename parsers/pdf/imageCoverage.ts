import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Pdfjs } from './loadPdfjs';
import { walkOperators } from './operatorWalk';
import type { Matrix } from './pathBoxes';

/**
 * The share of the page (0..1) that its images cover: each image is the unit square under the
 * transformation in force when it is painted, so the operator list's save, restore, transform
 * and form-XObject matrices are followed. Overlapping images are counted twice, and the sum is
 * capped at the page; that only matters near the threshold, where a page is mostly pictures
 * either way. Linear in the page's operators.
 */
export async function imageCoverage(pdfjs: Pdfjs, page: PDFPageProxy): Promise<number> {
  const { OPS } = pdfjs;
  const list = await page.getOperatorList();
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
  const pageArea = Math.abs((x1 - x0) * (y1 - y0));
  if (pageArea === 0) return 0;
  let covered = 0;
  walkOperators(OPS, list, (fn, _args, ctm) => {
    if (isImagePaint(OPS, fn)) covered += clippedArea(ctm, [x0, y0, x1, y1]);
  });
  return Math.min(1, covered / pageArea);
}

function isImagePaint(OPS: Pdfjs['OPS'], fn: number | undefined): boolean {
  return (
    fn === OPS.paintImageXObject ||
    fn === OPS.paintInlineImageXObject ||
    fn === OPS.paintImageMaskXObject ||
    fn === OPS.paintImageXObjectRepeat
  );
}

/** The area of the unit square's bounding box under `m`, clipped to the page's box. */
function clippedArea(m: Matrix, view: [number, number, number, number]): number {
  const xs = [m[4], m[0] + m[4], m[2] + m[4], m[0] + m[2] + m[4]];
  const ys = [m[5], m[1] + m[5], m[3] + m[5], m[1] + m[3] + m[5]];
  const left = Math.max(Math.min(view[0], view[2]), Math.min(xs[0]!, xs[1]!, xs[2]!, xs[3]!));
  const right = Math.min(Math.max(view[0], view[2]), Math.max(xs[0]!, xs[1]!, xs[2]!, xs[3]!));
  const bottom = Math.max(Math.min(view[1], view[3]), Math.min(ys[0]!, ys[1]!, ys[2]!, ys[3]!));
  const top = Math.min(Math.max(view[1], view[3]), Math.max(ys[0]!, ys[1]!, ys[2]!, ys[3]!));
  return Math.max(0, right - left) * Math.max(0, top - bottom);
}
