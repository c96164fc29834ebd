import type { PdfRule } from '../pageGeometry';
import { clusterValues } from './clusterValues';

/** Rules this close (PDF units) touch: a cell's own border beside its neighbour's, a table's frame beside its cells'. */
export const RULE_TOLERANCE = 3;

/** The grid a connected set of rules draws: its column and row boundaries and the rules themselves. */
export interface RuleGrid {
  /** Column boundaries, left to right. */
  xs: number[];
  /** Row boundaries, top to bottom (descending y). */
  ys: number[];
  horizontal: PdfRule[];
  vertical: PdfRule[];
}

/**
 * The grids on a page: rules that touch or cross are one table's, and each set of them gives
 * a grid of at least two columns and one row. A frame around a code block or a note (one
 * column) is no grid. Quadratic in the rules, which readPageShapes caps per page.
 */
export function ruleGrids(rules: readonly PdfRule[]): RuleGrid[] {
  const parent = rules.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let i = 0; i < rules.length; i++)
    for (let j = i + 1; j < rules.length; j++) if (touch(rules[i]!, rules[j]!)) parent[root(i)] = root(j);
  const groups = new Map<number, PdfRule[]>();
  rules.forEach((rule, i) => {
    const key = root(i);
    const group = groups.get(key);
    if (group) group.push(rule);
    else groups.set(key, [rule]);
  });
  const grids: RuleGrid[] = [];
  for (const group of groups.values()) {
    const horizontal = group.filter((rule) => rule.y1 === rule.y2);
    const vertical = group.filter((rule) => rule.x1 === rule.x2);
    const allXs = clusterValues(
      vertical.map((rule) => rule.x1),
      RULE_TOLERANCE,
    );
    const ys = separating(
      horizontal,
      'y',
      clusterValues(
        horizontal.map((rule) => rule.y1),
        RULE_TOLERANCE,
      ).reverse(),
      allXs,
    );
    const xs = separating(vertical, 'x', allXs, ys);
    if (xs.length >= 3 && ys.length >= 2) grids.push({ xs, ys, horizontal, vertical });
  }
  return grids;
}

/**
 * The boundaries that separate at least one pair of cells: a short rule inside one cell (a
 * mark, an icon's stroke) adds a coordinate that no cell is bounded by, which would split every
 * row or column it crosses in two.
 */
function separating(rules: readonly PdfRule[], axis: 'x' | 'y', bounds: number[], across: number[]): number[] {
  const outer = [bounds[0], bounds[bounds.length - 1]];
  return bounds.filter((at) => {
    if (outer.includes(at)) return true;
    for (let i = 0; i + 1 < across.length; i++)
      if (ruled(rules, axis, at, (across[i]! + across[i + 1]!) / 2)) return true;
    return false;
  });
}

function touch(a: PdfRule, b: PdfRule): boolean {
  const t = RULE_TOLERANCE;
  return a.x1 - t <= b.x2 && b.x1 - t <= a.x2 && a.y1 - t <= b.y2 && b.y1 - t <= a.y2;
}

/** Whether a rule along `axis` at `at` covers the point `along` (the middle of a cell's side). */
export function ruled(rules: readonly PdfRule[], axis: 'x' | 'y', at: number, along: number): boolean {
  const t = RULE_TOLERANCE;
  return rules.some((rule) =>
    axis === 'x'
      ? Math.abs(rule.x1 - at) <= t && rule.y1 - t <= along && along <= rule.y2 + t
      : Math.abs(rule.y1 - at) <= t && rule.x1 - t <= along && along <= rule.x2 + t,
  );
}
