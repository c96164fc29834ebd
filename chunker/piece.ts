import type { TokenTally } from '../tokenizer/countTokens';

/** A cut of a text, as the splitters and the hard cut hand it on. */
export interface Piece {
  /** Verbatim text including its trailing separator, so concatenated pieces rebuild the input. */
  text: string;
  tokens: number;
  /** Counted once, when the piece is cut; children's and the body's counts are joined from these. */
  tally: TokenTally;
}
