import type { PdfRule } from '../pageGeometry';
import type { PdfLine } from '../pdfLine';

/** How far below its baseline (in font sizes) a rule still underlines a run, and above it strikes it through. */
const BELOW = 0.35;
const ABOVE = 0.7;
/** Slack (PDF units) around a run's extent. */
const SLACK = 1;

/**
 * The rules that can separate table cells: a vertical rule that text runs across is drawn
 * over or under that text (a banner, a menu icon), and a horizontal one no longer than the run
 * it sits under or through is an underline (browsers draw a link's underline as a thin fill).
 * Proportional to rules × runs; both are capped per page.
 */
export function cellRules(rules: readonly PdfRule[], lines: readonly PdfLine[]): PdfRule[] {
  return rules.filter((rule) => !lines.some((line) => marksText(rule, line)));
}

function marksText(rule: PdfRule, line: PdfLine): boolean {
  const low = line.y - line.size * BELOW;
  const high = line.y + line.size * ABOVE;
  if (rule.x1 === rule.x2 && (rule.y2 < line.y || rule.y1 > high)) return false;
  if (rule.y1 === rule.y2 && (rule.y1 < low || rule.y1 > high)) return false;
  for (const run of line.runs ?? []) {
    if (rule.x1 === rule.x2) {
      if (run.x < rule.x1 - SLACK && run.endX > rule.x1 + SLACK) return true;
    } else if (rule.x1 >= run.x - SLACK && rule.x2 <= run.endX + SLACK) return true;
  }
  return false;
}
