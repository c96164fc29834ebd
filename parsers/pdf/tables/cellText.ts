import type { PdfRun } from '../pdfLine';
import { SPACE_GAP } from './lineSegments';

/** A run inside a cell and the baseline of the line it came from. */
export interface CellPiece {
  run: PdfRun;
  y: number;
}

/** Baselines closer than this share of a font size are one line of a cell. */
const SAME_LINE = 0.5;

/**
 * A cell's text: its lines top to bottom, each line's runs left to right, joined with a space
 * where a gap shows one; lines with a space.
 */
export function cellText(pieces: readonly CellPiece[]): string {
  const byHeight = [...pieces].sort((a, b) => b.y - a.y);
  const lines: CellPiece[][] = [];
  for (const piece of byHeight) {
    const line = lines[lines.length - 1];
    if (line && line[0]!.y - piece.y < piece.run.size * SAME_LINE) line.push(piece);
    else lines.push([piece]);
  }
  const texts = lines.map((line) => {
    const runs = line.map((piece) => piece.run).sort((a, b) => a.x - b.x);
    let text = '';
    runs.forEach((run, i) => {
      if (i > 0 && run.x - runs[i - 1]!.endX > run.size * SPACE_GAP) text += ' ';
      text += run.text;
    });
    return text;
  });
  return texts.join(' ').replace(/\s+/g, ' ').trim();
}
