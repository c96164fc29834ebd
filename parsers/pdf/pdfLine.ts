/** One visual line of a page, in reading order, with what layout analysis needs. */
export interface PdfLine {
  text: string;
  /** Left edge and baseline in PDF units (y grows upwards). */
  x: number;
  y: number;
  /** Largest font size on the line: a heading's size decides its level. */
  size: number;
  /** Set in a fixed-pitch font: code, commands, terminal output. */
  mono: boolean;
  /** A heading of this level, as the document's outline says (parsers/pdf/outlineHeadings.ts). */
  heading?: number;
  /**
   * The text runs the line was joined from, left to right as set: where each starts and ends
   * tells table columns, list markers and indentation apart. Absent on lines read by OCR.
   */
  runs?: PdfRun[];
}

/** One pdf.js text item on a line: its text, horizontal extent (PDF units) and font. */
export interface PdfRun {
  text: string;
  x: number;
  endX: number;
  size: number;
  /** pdf.js's name of the font (loadedName); its family says whether it is fixed-pitch. */
  font: string;
  mono: boolean;
}
