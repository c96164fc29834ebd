/**
 * What a page draws besides text, in PDF units (y grows upwards), as read from its operator list
 * (parsers/pdf/pageShapes.ts): the strokes and thin fills that rule tables, and the small filled
 * shapes browsers and typesetters draw as list bullets instead of a bullet glyph.
 */
export interface PdfRule {
  /** A horizontal rule has y1 === y2, a vertical one x1 === x2; x1 ≤ x2 and y1 ≤ y2. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A small filled shape (disc, square) about the size of a glyph: a bullet drawn as a path. */
export interface PdfMark {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PageShapes {
  rules: PdfRule[];
  marks: PdfMark[];
}
