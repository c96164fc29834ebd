import stringWidth from 'string-width';

// Terminals give East Asian wide characters and most emoji two columns, and combining marks none,
// so UTF-16 length (what padEnd counts) puts a bar after a Chinese file name out of line.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The text cut to at most `width` terminal columns (never inside a grapheme), then padded with spaces to `width`. */
export function fitToWidth(text: string, width: number): string {
  let used = 0;
  let kept = '';
  for (const { segment } of graphemes.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > width) break;
    kept += segment;
    used += w;
  }
  return kept + ' '.repeat(width - used);
}

/** The text padded with spaces to `width` columns; longer text is left whole. */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - stringWidth(text)));
}
