import type { TextContent, TextItem } from 'pdfjs-dist/types/src/display/api';
import type { PdfRun } from './pdfLine';

/**
 * Advance per character in font sizes: within a fixed-pitch font every run measures the same
 * whatever its letters (0.6 for Courier and DejaVu Sans Mono), within a proportional one it varies
 * with them ("ill" against "mom"). This is how far apart two runs of one font may measure.
 */
const PITCH_SPREAD = 0.012;
/** Distinct runs a font needs before its pitch counts as uniform: one or two may agree by chance. */
const MIN_DISTINCT_RUNS = 3;
/** Two distinct runs suffice when they sit at the pitch nearly every monospaced font has. */
const COMMON_PITCH = { min: 0.54, max: 0.62 };

interface FontPitch {
  min: number;
  max: number;
  texts: Set<string>;
}

/**
 * The page's fixed-pitch fonts (pdf.js loadedNames): those pdf.js flags fixed-pitch, and those
 * whose runs all advance the same per character. WeasyPrint embeds monospaced fonts without the
 * fixed-pitch flag, so the flag alone missed all of their code. One pass over the items.
 */
export function fixedPitchFonts(content: TextContent): Set<string> {
  const pitches = new Map<string, FontPitch>();
  for (const item of content.items) {
    // Spaces stretch with word spacing (justified text), so only runs without them are measured.
    if (!('str' in item) || item.str === '' || /\s/.test(item.str)) continue;
    const pitch = advancePerChar(item);
    if (pitch === null) continue;
    const font = pitches.get(item.fontName) ?? { min: pitch, max: pitch, texts: new Set<string>() };
    font.min = Math.min(font.min, pitch);
    font.max = Math.max(font.max, pitch);
    if (font.texts.size < MIN_DISTINCT_RUNS) font.texts.add(item.str);
    pitches.set(item.fontName, font);
  }
  const fixed = new Set<string>();
  for (const [name, style] of Object.entries(content.styles)) if (style.fontFamily === 'monospace') fixed.add(name);
  for (const [name, font] of pitches) {
    if (font.max - font.min > PITCH_SPREAD) continue;
    const common = font.min >= COMMON_PITCH.min && font.max <= COMMON_PITCH.max;
    if (font.texts.size >= MIN_DISTINCT_RUNS || (common && font.texts.size >= 2)) fixed.add(name);
  }
  return fixed;
}

function advancePerChar(item: TextItem): number | null {
  const [a = 0, b = 0] = item.transform as number[];
  const size = Math.hypot(a, b);
  const chars = [...item.str].length;
  return size > 0 && item.width > 0 ? item.width / (chars * size) : null;
}

/**
 * A code line's text with its spacing: each run starts at the column its x position says, so the
 * indentation and alignment a `pre` block had survive (renderers drop the spaces and move the pen).
 */
export function codeLineText(runs: readonly PdfRun[], lineX: number): string | null {
  let pitch = 0;
  let widest = 0;
  for (const run of runs) {
    const chars = [...run.text].length;
    if (run.mono && chars > widest) {
      widest = chars;
      pitch = (run.endX - run.x) / chars;
    }
  }
  if (pitch <= 0) return null;
  let text = '';
  let endX = lineX;
  for (const run of [...runs].sort((p, q) => p.x - q.x)) {
    const column = Math.round((run.x - lineX) / pitch);
    if (column > text.length) text += ' '.repeat(column - text.length);
    // A narrower space than a column (a proportional one between code words) still separates them.
    else if (text !== '' && run.x - endX > pitch * 0.3 && !/\s$/.test(text)) text += ' ';
    text += run.text;
    endX = run.endX;
  }
  return text.trimEnd();
}
