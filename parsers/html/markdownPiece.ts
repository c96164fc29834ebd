/**
 * A piece of markdown with its leading and trailing line breaks counted apart from its body, so
 * that joining pieces (turndown's rule: the larger run of line breaks on either side, at most
 * two) and wrapping a block in blank lines never rescans the text already built.
 */
export interface Piece {
  lead: number;
  /** Neither starts nor ends with '\n'; '' when the piece is only line breaks (then trail is 0). */
  body: string;
  trail: number;
}

export const EMPTY: Piece = { lead: 0, body: '', trail: 0 };

export function pieceOf(text: string): Piece {
  let lead = 0;
  while (lead < text.length && text.charCodeAt(lead) === 10) lead++;
  if (lead === text.length) return { lead, body: '', trail: 0 };
  let end = text.length;
  while (text.charCodeAt(end - 1) === 10) end--;
  return { lead, body: text.slice(lead, end), trail: text.length - end };
}

export function textOf(piece: Piece): string {
  if (piece.lead === 0 && piece.trail === 0) return piece.body;
  return '\n'.repeat(piece.lead) + piece.body + '\n'.repeat(piece.trail);
}

/** `before` line breaks, the piece, `after` line breaks. */
export function wrap(piece: Piece, before: number, after: number): Piece {
  if (piece.body === '') return { lead: piece.lead + before + after, body: '', trail: 0 };
  return { lead: piece.lead + before, body: piece.body, trail: piece.trail + after };
}

/** Builds one piece from a run of pieces with turndown's join. */
export class PieceJoiner {
  private lead = 0;
  private readonly parts: string[] = [];
  private trail = 0;

  add(piece: Piece): void {
    if (this.parts.length === 0) {
      this.lead = Math.min(2, Math.max(this.lead, piece.lead));
      if (piece.body === '') return;
    } else if (piece.body === '') {
      this.trail = Math.min(2, Math.max(this.trail, piece.lead));
      return;
    } else {
      const breaks = Math.min(2, Math.max(this.trail, piece.lead));
      if (breaks > 0) this.parts.push(breaks === 1 ? '\n' : '\n\n');
    }
    this.parts.push(piece.body);
    this.trail = piece.trail;
  }

  /** Text without line breaks at its ends, added without a Piece of its own. */
  addText(text: string): void {
    if (text === '') return;
    if (this.parts.length > 0 && this.trail > 0) this.parts.push(this.trail === 1 ? '\n' : '\n\n');
    else if (this.parts.length === 0) this.lead = Math.min(2, this.lead);
    this.parts.push(text);
    this.trail = 0;
  }

  piece(): Piece {
    if (this.parts.length === 0) return { lead: this.lead, body: '', trail: 0 };
    return { lead: this.lead, body: this.parts.length === 1 ? this.parts[0]! : this.parts.join(''), trail: this.trail };
  }
}
