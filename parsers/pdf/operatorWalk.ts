import type { Pdfjs } from './loadPdfjs';
import { multiply, type Matrix } from './pathBoxes';

interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

/**
 * Visits a page's operators with the transformation in force at each: save, restore, transform and
 * form-XObject matrices are followed here, every other operator is handed to `visit`, which stops
 * the walk by returning false. Linear in the operators visited.
 */
export function walkOperators(
  OPS: Pdfjs['OPS'],
  list: OperatorList,
  visit: (fn: number | undefined, args: unknown[] | null, ctm: Matrix) => boolean | void,
): void {
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(ctm, args as Matrix);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      if (Array.isArray(args?.[0]) && args[0].length === 6) ctm = multiply(ctm, args[0] as Matrix);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (visit(fn, args, ctm) === false) return;
  }
}
