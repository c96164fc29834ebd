import type { Pdfjs } from './loadPdfjs';

export type Matrix = [number, number, number, number, number, number];

/** An axis-aligned box in page units; `curved`: its outline has curves (a disc, a rounded corner). */
export interface PathBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  curved: boolean;
}

/** pdf.js's path drawing codes inside a constructPath buffer (DrawOPS in pdf.mjs). */
const MOVE_TO = 0;
const LINE_TO = 1;
const CURVE_TO = 2;
const QUADRATIC_CURVE_TO = 3;
const CLOSE_PATH = 4;
/** A stroked segment off the axis by more than this (page units) is a diagonal, not a rule. */
const AXIS_SLACK = 0.5;

/** Paint operators that draw a path (a clip's endPath draws nothing). */
export function isPaint(OPS: Pdfjs['OPS'], paint: number): boolean {
  return paint !== OPS.endPath;
}

export function isStroke(OPS: Pdfjs['OPS'], paint: number): boolean {
  return paint === OPS.stroke || paint === OPS.closeStroke;
}

/**
 * The boxes a path paints, from pdf.js's constructPath buffer under `ctm`, reading at most
 * `limit` buffer entries: a stroke's axis-aligned straight segments one by one (a stroked
 * rectangle is four rules), a fill's subpaths each as its bounding box.
 */
export function pathBoxes(data: Float32Array, ctm: Matrix, stroked: boolean, limit = data.length): PathBox[] {
  const boxes: PathBox[] = [];
  const end = Math.min(limit, data.length);
  let box: PathBox | null = null;
  let startX = 0;
  let startY = 0;
  let lastX = 0;
  let lastY = 0;
  const point = (x: number, y: number): [number, number] => [
    ctm[0] * x + ctm[2] * y + ctm[4],
    ctm[1] * x + ctm[3] * y + ctm[5],
  ];
  const grow = (x: number, y: number): void => {
    if (!box) return;
    box.x1 = Math.min(box.x1, x);
    box.y1 = Math.min(box.y1, y);
    box.x2 = Math.max(box.x2, x);
    box.y2 = Math.max(box.y2, y);
  };
  const segment = (x: number, y: number): void => {
    if (Math.abs(x - lastX) <= AXIS_SLACK || Math.abs(y - lastY) <= AXIS_SLACK)
      boxes.push(span(lastX, lastY, x, y, false));
  };
  for (let i = 0; i < end;) {
    const code = data[i++];
    if (code === MOVE_TO || code === LINE_TO) {
      const [x, y] = point(data[i] ?? 0, data[i + 1] ?? 0);
      i += 2;
      if (code === MOVE_TO) {
        if (!stroked && box) boxes.push(box);
        box = stroked ? null : span(x, y, x, y, false);
        [startX, startY] = [x, y];
      } else if (stroked) segment(x, y);
      else grow(x, y);
      [lastX, lastY] = [x, y];
    } else if (code === CURVE_TO || code === QUADRATIC_CURVE_TO) {
      const count = code === CURVE_TO ? 3 : 2;
      for (let k = 0; k < count; k++) {
        const [x, y] = point(data[i + 2 * k] ?? 0, data[i + 2 * k + 1] ?? 0);
        grow(x, y);
        [lastX, lastY] = [x, y];
      }
      if (box) box.curved = true;
      i += 2 * count;
    } else if (code === CLOSE_PATH) {
      if (stroked) segment(startX, startY);
      [lastX, lastY] = [startX, startY];
    } else break;
  }
  if (!stroked && box) boxes.push(box);
  return boxes;
}

function span(ax: number, ay: number, bx: number, by: number, curved: boolean): PathBox {
  return { x1: Math.min(ax, bx), y1: Math.min(ay, by), x2: Math.max(ax, bx), y2: Math.max(ay, by), curved };
}

/** m × n as PDF composes them: n applied first, then m (the CTM is pre-multiplied by a cm). */
export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    n[0] * m[0] + n[1] * m[2],
    n[0] * m[1] + n[1] * m[3],
    n[2] * m[0] + n[3] * m[2],
    n[2] * m[1] + n[3] * m[3],
    n[4] * m[0] + n[5] * m[2] + m[4],
    n[4] * m[1] + n[5] * m[3] + m[5],
  ];
}
