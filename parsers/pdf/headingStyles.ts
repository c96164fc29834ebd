import type { PdfLine } from './pdfLine';

/**
 * Browsers print h2 and h3 at 1.5 and 1.17 em of their own font, but a manual's CSS often sets
 * them closer to the body (PostgreSQL's h2 is 1.1×): a text layer's sizes are exact, so a small
 * step up is a style of its own.
 */
const TEXT_LAYER_MIN_RATIO = 1.05;
/** OCR sizes come from box heights, which ascenders and descenders move by a tenth or more. */
const OCR_MIN_RATIO = 1.12;
/** Browsers set h4 bold at the body's size and h5 bold at 0.83 em: bold marks them, not size. */
const BOLD_MIN_RATIO = 0.8;
/** Text in one style beyond this share of the body's amount is a second body style, not headings. */
const MAX_SHARE = 0.15;
/**
 * A heading starts a block of its own and is one or two lines long; a lead paragraph or banner
 * set large runs on for several lines, so few of its lines start a block.
 */
const MIN_BLOCK_START_SHARE = 0.4;
/** A gap between baselines beyond this many font sizes separates blocks (the line pitch is ~1.2). */
const BLOCK_GAP_RATIO = 1.45;
/** A line is bold when this share of its characters is set in bold fonts. */
const BOLD_SHARE = 0.8;
/** A list item's number or letter ("3. ", "b) "): bold list leads are not headings. */
const LIST_NUMBER = /^(?:\d{1,3}|[a-z])[.)]\s/i;
/** A run-in label ("Note:") or a bold sentence ends like running text does. */
const RUN_IN_END = /[.:;,]$/;
/** Runs further apart than this many font sizes are table cells, not one heading. */
const CELL_GAP_RATIO = 1.5;

export const roundSize = (size: number): number => Math.round(size * 2) / 2;

/** A line's style: its rounded size, and whether it is bold ("11" or "11 bold"). */
export function headingStyle(line: PdfLine, boldFonts: ReadonlySet<string>): string {
  return isBold(line, boldFonts) ? `${roundSize(line.size)} bold` : `${roundSize(line.size)}`;
}

/**
 * Bold at the body's size or below also sets list leads, table header rows and run-in labels: such
 * a line is a heading only when it reads as one. Larger styles are told apart by their size.
 */
export function readsAsHeading(line: PdfLine, bodySize: number, boldFonts: ReadonlySet<string>): boolean {
  return roundSize(line.size) > bodySize || !isBold(line, boldFonts) || readsAsHeadingText(line);
}

function readsAsHeadingText(line: PdfLine): boolean {
  if (LIST_NUMBER.test(line.text) || RUN_IN_END.test(line.text)) return false;
  const runs = line.runs ?? [];
  return runs.every((run, i) => i === 0 || run.x - (runs[i - 1]?.endX ?? run.x) <= line.size * CELL_GAP_RATIO);
}

/** The size carrying the most characters. */
export function bodySizeOf(samples: readonly (readonly PdfLine[])[]): number {
  const charsBySize = new Map<number, number>();
  for (const lines of samples)
    for (const line of lines) {
      const size = roundSize(line.size);
      charsBySize.set(size, (charsBySize.get(size) ?? 0) + line.text.length);
    }
  return [...charsBySize].sort((p, q) => q[1] - p[1])[0]?.[0] ?? 0;
}

/**
 * Fonts whose weight could make a heading: each sets a whole line at the body's size or a little
 * below, standing apart and reading as a heading, and is not the body's own font. Larger lines
 * are headings by size alone, so most documents have none of these and need no font looked up.
 */
export function boldCandidateFonts(samples: readonly (readonly PdfLine[])[]): Set<string> {
  const bodySize = bodySizeOf(samples);
  const charsByFont = new Map<string, number>();
  const candidates = new Set<string>();
  for (const lines of samples)
    lines.forEach((line, i) => {
      const size = roundSize(line.size);
      const fonts = new Set((line.runs ?? []).map((run) => run.font));
      if (size === bodySize)
        for (const run of line.runs ?? [])
          charsByFont.set(run.font, (charsByFont.get(run.font) ?? 0) + run.text.length);
      const [font] = fonts;
      if (font === undefined || fonts.size > 1 || line.mono || size > bodySize || size < bodySize * BOLD_MIN_RATIO)
        return;
      if (readsAsHeadingText(line) && startsBlock(lines[i - 1], line, `${size}`, new Set())) candidates.add(font);
    });
  const [bodyFont] = [...charsByFont].sort((p, q) => q[1] - p[1])[0] ?? [];
  if (bodyFont !== undefined) candidates.delete(bodyFont);
  return candidates;
}

interface StyleTally {
  size: number;
  bold: boolean;
  chars: number;
  lines: number;
  blockStarts: number;
}

/**
 * Heading styles of sampled pages ranked into levels (1 = largest, bold before regular at one
 * size): styles larger than the body's, or bold and not much smaller, rare enough, and set as
 * lines standing apart. Fixed-pitch lines are code, whatever their size, so a large code font
 * takes no level; the body's own style is running text, so bold at its size must be a style apart.
 */
export function headingLevelsOf(
  samples: readonly (readonly PdfLine[])[],
  bodySize: number,
  boldFonts: ReadonlySet<string>,
): Map<string, number> {
  const tallies = new Map<string, StyleTally>();
  let bodyChars = 0;
  let textLayer = false;
  for (const lines of samples) {
    lines.forEach((line, i) => {
      const bold = isBold(line, boldFonts);
      if (roundSize(line.size) === bodySize && !bold) bodyChars += line.text.length;
      if (line.runs) textLayer = true;
      if (line.mono || !readsAsHeading(line, bodySize, boldFonts)) return;
      const style = headingStyle(line, boldFonts);
      const tally = tallies.get(style) ?? { size: roundSize(line.size), bold, chars: 0, lines: 0, blockStarts: 0 };
      tally.chars += line.text.length;
      tally.lines++;
      if (startsBlock(lines[i - 1], line, style, boldFonts)) tally.blockStarts++;
      tallies.set(style, tally);
    });
  }
  const minSize = bodySize * (textLayer ? TEXT_LAYER_MIN_RATIO : OCR_MIN_RATIO);
  const styles = [...tallies]
    .filter(
      ([, tally]) =>
        tally.size >= (tally.bold ? bodySize * BOLD_MIN_RATIO : minSize) &&
        tally.chars <= bodyChars * MAX_SHARE &&
        tally.blockStarts >= tally.lines * MIN_BLOCK_START_SHARE,
    )
    .sort(([, p], [, q]) => q.size - p.size || Number(q.bold) - Number(p.bold));
  return new Map(styles.map(([style], i) => [style, Math.min(i + 1, 6)]));
}

function isBold(line: PdfLine, boldFonts: ReadonlySet<string>): boolean {
  let chars = 0;
  let boldChars = 0;
  for (const run of line.runs ?? []) {
    chars += run.text.length;
    if (boldFonts.has(run.font)) boldChars += run.text.length;
  }
  return chars > 0 && boldChars >= chars * BOLD_SHARE;
}

function startsBlock(
  previous: PdfLine | undefined,
  line: PdfLine,
  style: string,
  boldFonts: ReadonlySet<string>,
): boolean {
  if (!previous || headingStyle(previous, boldFonts) !== style) return true;
  return previous.y - line.y > line.size * BLOCK_GAP_RATIO;
}
