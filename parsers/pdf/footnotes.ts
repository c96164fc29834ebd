import type { PdfLine } from './pdfLine';

/** Footnotes are set smaller than the body: at most this share of its size. */
const NOTE_SIZE_RATIO = 0.92;
/** A footnote block stands apart from the text above it by more than a line's pitch. */
const NOTE_GAP_RATIO = 1.3;
/** A note starts with its number or a reference mark. */
const NOTE_MARK = /^(?:\d{1,3}|[*†‡§¶])(?:\s|(?=\p{L}))/u;

/**
 * Splits the footnotes off the bottom of a page's body: the trailing block of lines set smaller
 * than the body (not code), apart from the text above, whose first line starts with a note number
 * or mark. Each note (a line starting with a mark at the block's left edge, and the lines after it)
 * becomes one text. Written after the paragraph that runs on, a note no longer cuts it in two.
 */
export function splitFootnotes(body: readonly PdfLine[], bodySize: number): { text: PdfLine[]; notes: string[] } {
  let start = body.length;
  while (start > 0) {
    const line = body[start - 1]!;
    if (line.mono || line.size > bodySize * NOTE_SIZE_RATIO) break;
    start--;
  }
  const first = body[start];
  const above = body[start - 1];
  const apart = !above || above.y - (first?.y ?? 0) > NOTE_GAP_RATIO * above.size;
  if (!first || bodySize <= 0 || start === 0 || !apart || !NOTE_MARK.test(first.text))
    return { text: [...body], notes: [] };
  const notes: string[] = [];
  for (const line of body.slice(start)) {
    const starts = NOTE_MARK.test(line.text) && line.x <= first.x + line.size * 0.5;
    if (starts || notes.length === 0) notes.push(line.text);
    else notes[notes.length - 1] += ` ${line.text}`;
  }
  return { text: body.slice(0, start), notes };
}
