import type { TextContent, TextItem } from 'pdfjs-dist/types/src/display/api';
import { codeLineText, fixedPitchFonts } from './fixedPitch';
import { attachMarkers } from './markerLines';
import type { PdfLine, PdfRun } from './pdfLine';
import { readingOrder } from './readingOrder';

/** Share of a line's characters that must be fixed-pitch for the line to count as code. */
const MONO_SHARE = 0.8;

interface OpenLine {
  parts: string[];
  x: number;
  y: number;
  endX: number;
  size: number;
  chars: number;
  monoChars: number;
  runs: PdfRun[];
}

/**
 * Groups pdf.js text items into lines: list markers written apart are joined to their items first,
 * while the stream still says which came later (markerLines.ts), then the lines are put top to
 * bottom (readingOrder.ts). Items arrive in content-stream order, which for typeset
 * documents is reading order; a baseline jump of half a font size or an explicit end-of-line
 * starts a new line. Items are separate runs of glyphs, so a visible gap between two becomes a space.
 */
export function pageLines(content: TextContent): PdfLine[] {
  const lines: PdfLine[] = [];
  let open: OpenLine | null = null;
  const fixedPitch = fixedPitchFonts(content);
  const close = (): void => {
    if (open) {
      const text = open.parts.join('').replace(/\s+/g, ' ').trim();
      const mono = open.monoChars >= open.chars * MONO_SHARE;
      let x = open.x;
      for (const run of open.runs) x = Math.min(x, run.x);
      if (text !== '')
        lines.push({
          text: (mono ? codeLineText(open.runs, x) : inReadingOrder(open.runs)) ?? text,
          x,
          y: open.y,
          size: open.size,
          mono,
          runs: open.runs,
        });
    }
    open = null;
  };

  for (const item of content.items) {
    if (!('str' in item)) continue;
    const [a = 0, b = 0, , , x = 0, y = 0] = item.transform as number[];
    const size = Math.hypot(a, b);
    if (item.str !== '') {
      if (open && Math.abs(y - open.y) > Math.max(open.size, size) * 0.5) close();
      open = extend(open, item, { x, y, size }, item.fontName, fixedPitch.has(item.fontName));
    }
    if (item.hasEOL) close();
  }
  close();
  return readingOrder(attachMarkers(lines));
}

function extend(
  open: OpenLine | null,
  item: TextItem,
  at: { x: number; y: number; size: number },
  font: string,
  mono: boolean,
): OpenLine {
  const line = open ?? { parts: [], x: at.x, y: at.y, endX: at.x, size: 0, chars: 0, monoChars: 0, runs: [] };
  const previous = line.parts[line.parts.length - 1] ?? '';
  const gap = at.x - line.endX;
  if (line.parts.length > 0 && gap > at.size * 0.15 && !/\s$/.test(previous) && !/^\s/.test(item.str))
    line.parts.push(' ');
  line.parts.push(item.str);
  line.endX = at.x + item.width;
  if (item.str.trim() !== '') line.runs.push({ text: item.str, x: at.x, endX: line.endX, size: at.size, font, mono });
  const visible = item.str.replace(/\s/g, '').length;
  if (visible > 0) line.size = Math.max(line.size, at.size);
  line.chars += visible;
  if (mono) line.monoChars += visible;
  return line;
}

/**
 * Some renderers write a list marker after its item's text (WeasyPrint, LibreOffice): the line's
 * text then follows the runs left to right instead of the stream. Null when the stream is in order.
 */
function inReadingOrder(runs: readonly PdfRun[]): string | null {
  let ordered = true;
  // Overlapping glyphs (TeX builds © from a circle and a c) step back a little and stay as written.
  for (let i = 1; i < runs.length && ordered; i++) ordered = runs[i]!.x >= runs[i - 1]!.x - runs[i]!.size * 0.5;
  if (ordered) return null;
  const sorted = [...runs].sort((p, q) => p.x - q.x);
  let text = '';
  let endX = -Infinity;
  for (const run of sorted) {
    if (text !== '' && run.x - endX > run.size * 0.15 && !/\s$/.test(text) && !/^\s/.test(run.text)) text += ' ';
    text += run.text;
    endX = run.endX;
  }
  return text.replace(/\s+/g, ' ').trim();
}
