import type { PdfLine } from './pdfLine';

/** Courier and most fixed-pitch fonts are 0.6 em wide; this turns a code line's offset into spaces. */
const MONO_CHAR_WIDTH = 0.6;
/** Blank lines kept in a row inside a block: more is page layout, not the listing's own spacing. */
const MAX_BLANK_LINES = 2;

/** A code line and the page it was read on: baselines compare only within a page. */
export interface CodeLine {
  line: PdfLine;
  page: number;
}

/**
 * A fenced code block: each line indented by its offset from the block's leftmost line, and the
 * blank lines of the `pre` block restored from baseline gaps wider than the block's line pitch.
 */
export function fencedCode(code: readonly CodeLine[]): string {
  let left = Infinity;
  let pitch = Infinity;
  code.forEach(({ line, page }, i) => {
    left = Math.min(left, line.x);
    const above = code[i - 1];
    const gap = above && above.page === page ? above.line.y - line.y : 0;
    if (gap > line.size * 0.8) pitch = Math.min(pitch, gap);
  });
  const lines: string[] = [];
  code.forEach(({ line, page }, i) => {
    const above = code[i - 1];
    if (above && above.page === page && Number.isFinite(pitch)) {
      const blanks = Math.round((above.line.y - line.y) / pitch) - 1;
      for (let n = 0; n < Math.min(blanks, MAX_BLANK_LINES); n++) lines.push('');
    }
    const indent = Math.max(0, Math.round((line.x - left) / (line.size * MONO_CHAR_WIDTH)));
    lines.push(' '.repeat(indent) + line.text);
  });
  const fence = lines.some((line) => line.includes('```')) ? '~~~' : '```';
  return [fence, ...lines, fence].join('\n');
}
