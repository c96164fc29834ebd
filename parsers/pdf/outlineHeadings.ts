import type { OutlineEntry } from './outline';
import type { PdfLine } from './pdfLine';

/**
 * Title-to-line comparisons per page: a page of thousands of bookmarks and lines gets headings
 * inserted at their destinations instead of being matched line by line.
 */
const MATCH_BUDGET = 20_000;
/** A wrapped heading continues on the next line only when it sits this close below (in font sizes). */
const WRAP_GAP_RATIO = 2.5;
/**
 * What may precede a bookmark's title on its line: a section number ("5.4.1" → 541), an appendix
 * letter ("A.1"), a roman part number, or a word naming the unit ("Part I", "Chapter 3").
 */
const NUMBER_PREFIX = /^(?:\d{1,8}|[a-z]\d{0,6}|[ivxlc]{1,6}|(?:part|chapter|appendix|section)[a-z0-9]{0,4})?$/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A line reduced to its letters and digits, lowercased, with where each kept character ends in the text. */
interface CompactLine {
  compact: string;
  ends: number[];
}

interface Match {
  line: number;
  /** Lines the heading spans (a title wrapped over two lines). */
  span: 1 | 2;
  /** Where the title ends in the text of its last line. */
  end: number;
}

/**
 * Marks the lines of a page that bookmarks point at as headings of the bookmark's level. A title
 * is matched to a line that holds it (after a section number, and letters and digits compared
 * only, so ligatures, accents and spacing do not matter), the nearest one below the destination's
 * top, so the heading replaces the line rather than repeating it; text after the title on that
 * line ("abs Miscellaneous Mathematical Functions") stays as body text. An unmatched bookmark is
 * inserted as its own heading line where its destination points.
 */
export function placeOutlineHeadings(lines: readonly PdfLine[], entries: readonly OutlineEntry[]): PdfLine[] {
  if (entries.length === 0) return [...lines];
  // Computed as the matching reaches a line: once the budget is spent, the rest are never needed.
  const compactLines: (CompactLine | undefined)[] = [];
  const compact = (i: number): CompactLine | undefined => {
    const line = lines[i];
    if (line && !compactLines[i]) compactLines[i] = compactText(line.text);
    return compactLines[i];
  };
  const lowest = lowestBaselines(lines);
  const matched = new Map<number, { entry: OutlineEntry; match: Match }>();
  const consumed = new Set<number>();
  const inserted = new Map<number, OutlineEntry[]>();
  let budget = MATCH_BUDGET;

  for (const entry of entries) {
    const title = compactText(entry.title).compact;
    let best: Match | null = null;
    for (let i = 0; i < lines.length && title !== '' && budget > 0; i++, budget--) {
      if (consumed.has(i)) continue;
      const match = matchTitle(lines, compact, i, title);
      if (match && isCloser(lines, entry.top, match, best)) best = match;
      if (best && entry.top === null) break;
    }
    if (best) {
      matched.set(best.line, { entry, match: best });
      for (let k = 0; k < best.span; k++) consumed.add(best.line + k);
    } else {
      const at = insertionPoint(lowest, entry.top);
      const here = inserted.get(at) ?? [];
      here.push(entry);
      inserted.set(at, here);
    }
  }

  const placed: PdfLine[] = [];
  const headingAt = (line: PdfLine, entry: OutlineEntry, text: string): PdfLine => ({
    ...line,
    text,
    heading: entry.level,
  });
  for (let i = 0; i <= lines.length; i++) {
    for (const entry of inserted.get(i) ?? [])
      placed.push(headingAt(lines[i] ?? lines[lines.length - 1] ?? blankLine(entry), entry, entry.title));
    const line = lines[i];
    if (!line) break;
    const hit = matched.get(i);
    if (hit) {
      const { match, entry } = hit;
      const last = lines[i + match.span - 1]!;
      const head = match.span === 2 ? `${line.text} ${last.text.slice(0, match.end)}` : line.text.slice(0, match.end);
      placed.push(headingAt(line, entry, head.trim()));
      const rest = last.text.slice(match.end).trim();
      if (rest !== '') placed.push({ ...last, text: rest });
    } else if (!consumed.has(i)) {
      placed.push(line);
    }
  }
  return placed;
}

/**
 * NFKD splits ligatures and accented letters; only letters and digits are kept, lowercased.
 * ASCII, most of any Latin text, needs neither normalisation nor a Unicode class test.
 */
function compactText(text: string): CompactLine {
  let compact = '';
  const ends: number[] = [];
  let offset = 0;
  for (const char of text) {
    offset += char.length;
    const code = char.charCodeAt(0);
    if (code < 0x80) {
      if ((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a)) compact += char;
      else if (code >= 0x41 && code <= 0x5a) compact += String.fromCharCode(code + 0x20);
      else continue;
      ends.push(offset);
      continue;
    }
    for (const part of char.normalize('NFKD').toLowerCase()) {
      if (!LETTER_OR_DIGIT.test(part)) continue;
      compact += part;
      for (let k = 0; k < part.length; k++) ends.push(offset);
    }
  }
  return { compact, ends };
}

function matchTitle(
  lines: readonly PdfLine[],
  compact: (i: number) => CompactLine | undefined,
  i: number,
  title: string,
): Match | null {
  const first = compact(i)!;
  const at = first.compact.indexOf(title);
  if (at >= 0) {
    if (!NUMBER_PREFIX.test(first.compact.slice(0, at))) return null;
    const end = wordEnd(lines[i]!.text, first.ends[at + title.length - 1]!);
    return end === null ? null : { line: i, span: 1, end };
  }
  const line = lines[i]!;
  const below = lines[i + 1];
  const next = compact(i + 1);
  if (!next || !below || line.y - below.y <= 0 || line.y - below.y > line.size * WRAP_GAP_RATIO) return null;
  // Only a title that starts on this line and ends on the next, with nothing but punctuation after it.
  const joined = first.compact + next.compact;
  const start = joined.indexOf(title);
  const end = start + title.length;
  if (start < 0 || start >= first.compact.length || end <= first.compact.length || end !== joined.length) return null;
  if (!NUMBER_PREFIX.test(joined.slice(0, start))) return null;
  return { line: i, span: 2, end: below.text.length };
}

/**
 * The title must end a word: "all" is not the start of "all.equal". Punctuation glued to it
 * ("as.POSIX*") belongs to the heading. Returns where the heading ends, or null.
 */
function wordEnd(text: string, end: number): number | null {
  let stop = end;
  while (stop < text.length && !/\s/.test(text.charAt(stop))) {
    if (LETTER_OR_DIGIT.test(text.charAt(stop))) return null;
    stop++;
  }
  return stop;
}

/** With a destination top, the match whose baseline is nearest below it; without, the first. */
function isCloser(lines: readonly PdfLine[], top: number | null, match: Match, best: Match | null): boolean {
  if (top === null) return best === null;
  const line = lines[match.line]!;
  if (line.y > top + line.size) return false;
  return best === null || top - line.y < top - lines[best.line]!.y;
}

/** The lowest baseline among each line and the ones before it: never increasing, so searchable. */
function lowestBaselines(lines: readonly PdfLine[]): number[] {
  const lowest: number[] = [];
  let min = Infinity;
  for (const line of lines) {
    min = Math.min(min, line.y);
    lowest.push(min);
  }
  return lowest;
}

/**
 * Before the first line whose baseline is below the destination's top (found by bisection over
 * lowestBaselines); the page's start without a top.
 */
function insertionPoint(lowest: readonly number[], top: number | null): number {
  if (top === null) return 0;
  let low = 0;
  let high = lowest.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (lowest[mid]! < top) high = mid;
    else low = mid + 1;
  }
  return low;
}

function blankLine(entry: OutlineEntry): PdfLine {
  return { text: entry.title, x: 0, y: entry.top ?? 0, size: 0, mono: false };
}
