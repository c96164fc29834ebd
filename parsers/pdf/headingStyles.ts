import type { PdfLine } from './pageLines';

/**
 * Browsers print h2 and h3 at 1.5 and 1.17 em of their own font, but a manual's CSS often sets
 * them closer to the body (PostgreSQL's h2 is 1.1×): a text layer's sizes are exact, so a small
 * step up is a style of its own.
 */
const TEXT_LAYER_MIN_RATIO = 1.05;
/** OCR sizes come from box heights, which ascenders and descenders move by a tenth or more. */
const OCR_MIN_RATIO = 1.12;
/** Text in one size beyond this share of the body's amount is a second body style, not headings. */
const MAX_SHARE = 0.15;
/**
 * A heading starts a block of its own and is one or two lines long; a lead paragraph or banner
 * set large runs on for several lines, so few of its lines start a block.
 */
const MIN_BLOCK_START_SHARE = 0.4;
/** A gap between baselines beyond this many font sizes separates blocks (the line pitch is ~1.2). */
const BLOCK_GAP_RATIO = 1.45;

export const roundSize = (size: number): number => Math.round(size * 2) / 2;

interface SizeTally {
  chars: number;
  lines: number;
  blockStarts: number;
}

/**
 * Heading sizes of sampled pages ranked into levels (1 = largest): sizes above the body's, rare
 * enough, and set as lines standing apart. Fixed-pitch lines are code, whatever their size, so a
 * large code font takes no level.
 */
export function headingLevelsOf(samples: readonly PdfLine[][], bodySize: number): Map<number, number> {
  const tallies = new Map<number, SizeTally>();
  let bodyChars = 0;
  let textLayer = false;
  for (const lines of samples) {
    lines.forEach((line, i) => {
      const size = roundSize(line.size);
      if (size === bodySize) bodyChars += line.text.length;
      if (line.runs) textLayer = true;
      if (line.mono) return;
      const tally = tallies.get(size) ?? { chars: 0, lines: 0, blockStarts: 0 };
      tally.chars += line.text.length;
      tally.lines++;
      if (startsBlock(lines[i - 1], line)) tally.blockStarts++;
      tallies.set(size, tally);
    });
  }
  const minSize = bodySize * (textLayer ? TEXT_LAYER_MIN_RATIO : OCR_MIN_RATIO);
  const sizes = [...tallies]
    .filter(
      ([size, tally]) =>
        size >= minSize &&
        tally.chars <= bodyChars * MAX_SHARE &&
        tally.blockStarts >= tally.lines * MIN_BLOCK_START_SHARE,
    )
    .map(([size]) => size)
    .sort((p, q) => q - p);
  return new Map(sizes.map((size, i) => [size, Math.min(i + 1, 6)]));
}

function startsBlock(previous: PdfLine | undefined, line: PdfLine): boolean {
  if (!previous || roundSize(previous.size) !== roundSize(line.size)) return true;
  return previous.y - line.y > line.size * BLOCK_GAP_RATIO;
}
