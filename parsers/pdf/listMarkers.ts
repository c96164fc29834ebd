import type { PdfLine, PdfRun } from './pdfLine';

/** Glyphs that mark an item whatever follows them: nobody starts a sentence with one. */
const BULLET_GLYPHS = new Set([...'•◦▪▫‣●○■□∙⁃◆◇♦❖➢➤►▸▶▹✓✔❑❒⦁⦾⦿']);
/**
 * Glyphs that also open prose (a dash, a footnote star, a C pointer): a marker only when set apart
 * as its own run by a gap wider than a word space, as a list's hanging indent sets it.
 */
const AMBIGUOUS_BULLETS = new Set([...'–—-−*·o']);
/** Word and LibreOffice bullets from the Symbol and Wingdings fonts land in the Private Use Area. */
const PRIVATE_USE = /^[\ue000-\uf8ff]$/u;
/** `1.` `12)` `a.` `(b)` `iv.` `(iv)`: the forms ordered lists are numbered in. */
const NUMBERED = /^\(?(\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{2,6})[.)]$|^\((\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{2,6})\)$/;
const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/** Gap after an ambiguous glyph, in font sizes, that a word space does not reach. */
const MARKER_GAP = 0.45;

/** A list item's marker: `ordinal` null for a bullet, else the item's number in its list. */
export interface ListItem {
  ordinal: number | null;
  /** Marked `i.` or `I.`: the first roman numeral, or the ninth letter after `h.`. */
  letterI?: boolean;
  /** The item's text without its marker. */
  text: string;
}

/**
 * The list marker a line starts with, if any. A number or an ambiguous glyph counts only when it
 * is a run of its own (renderers set a marker apart from its text; "2. The" inside one run is a
 * wrapped sentence); lines without runs (OCR) are read from their text.
 */
export function listItem(line: PdfLine): ListItem | null {
  const space = line.text.indexOf(' ');
  const head = space < 0 ? line.text : line.text.slice(0, space);
  const rest = space < 0 ? '' : line.text.slice(space + 1).trimStart();
  const [marker, next] = line.runs ? leftmostTwo(line.runs) : [];
  const ownRun = line.runs === undefined || (marker?.text.trim() === head && next !== undefined);
  const glyph = line.text.charAt(0);
  if (BULLET_GLYPHS.has(glyph) || PRIVATE_USE.test(glyph)) {
    const text = line.text.slice(1).trimStart();
    return text === '' ? null : { ordinal: null, text };
  }
  if (rest === '' || !ownRun) return null;
  if (AMBIGUOUS_BULLETS.has(head)) {
    const apart = !marker || !next || next.x - marker.endX >= MARKER_GAP * line.size;
    return apart ? { ordinal: null, text: rest } : null;
  }
  const numbered = NUMBERED.exec(head);
  const label = numbered?.[1] ?? numbered?.[2];
  if (label === undefined) return null;
  return { ordinal: ordinalOf(label), text: rest, ...(label.toLowerCase() === 'i' ? { letterI: true } : {}) };
}

/** The two runs set leftmost, which the stream may have written last (a marker after its item). */
function leftmostTwo(runs: readonly PdfRun[]): [PdfRun | undefined, PdfRun | undefined] {
  let first: PdfRun | undefined;
  let second: PdfRun | undefined;
  for (const run of runs) {
    if (!first || run.x < first.x) [first, second] = [run, first];
    else if (!second || run.x < second.x) second = run;
  }
  return [first, second];
}

/** A line holding nothing but a marker: its item's text is a line of its own on the same baseline. */
export function isMarkerOnly(text: string): boolean {
  return BULLET_GLYPHS.has(text) || AMBIGUOUS_BULLETS.has(text) || PRIVATE_USE.test(text) || NUMBERED.test(text);
}

/** Roman numerals from two letters up ("ii", "iv") and a lone "i"; other letters count from a. */
function ordinalOf(label: string): number {
  if (/^\d+$/.test(label)) return Number(label);
  const lower = label.toLowerCase();
  if (lower.length === 1 && lower !== 'i') return lower.charCodeAt(0) - 96;
  let total = 0;
  for (let i = 0; i < lower.length; i++) {
    const value = ROMAN[lower.charAt(i)] ?? 0;
    const next = ROMAN[lower.charAt(i + 1)] ?? 0;
    total += value < next ? -value : value;
  }
  return Math.max(total, 1);
}
