import type { PdfRun } from '../pageLines';

/** A run inside a cell and the baseline of the line it came from. */
export interface CellPiece {
  run: PdfRun;
  y: number;
}

/** Baselines closer than this share of a font size are one line of a cell. */
const SAME_LINE = 0.5;
/** A gap wider than this share of a font size between two runs is a space (as pageLines reads it). */
const SPACE_GAP = 0.15;

/**
 * A cell's text: its runs top to bottom, then left to right, runs on one line joined with a
 * space where a gap shows one, lines with a space.
 */
export function cellText(pieces: readonly CellPiece[]): string {
  if (pieces.length === 0) return '';
  const ordered = [...pieces].sort((a, b) =>
    Math.abs(a.y - b.y) < a.run.size * SAME_LINE ? a.run.x - b.run.x : b.y - a.y,
  );
  let text = '';
  let previous: CellPiece | null = null;
  for (const piece of ordered) {
    const sameLine = previous !== null && Math.abs(previous.y - piece.y) < piece.run.size * SAME_LINE;
    const touching = sameLine && piece.run.x - previous!.run.endX <= piece.run.size * SPACE_GAP;
    if (previous !== null && !touching) text += ' ';
    text += piece.run.text;
    previous = piece;
  }
  return text.replace(/\s+/g, ' ').trim();
}
