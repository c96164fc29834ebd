export interface AtxHeading {
  level: number;
  /** Between the opening and closing `#` runs, blanks around it removed; '' for an empty heading. */
  title: string;
}

const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;

/** As `.` in a pattern: a character that breaks the line, so no heading can hold it. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * Reads an ATX heading: up to 3 spaces, 1–6 `#`, then a space or tab or the end of the line; a
 * closing run of `#`s after a space or tab is decoration (`## Title ##`). A scan from both ends
 * rather than a pattern: the pattern's lazy title and optional closing run retried every blank of
 * a long line against the rest of it (`# a`, 100,000 spaces, `#x` took 39 s).
 */
export function parseAtxHeading(line: string): AtxHeading | null {
  let open = 0;
  while (open < 3 && line.charCodeAt(open) === SPACE) open++;
  let afterMarks = open;
  while (line.charCodeAt(afterMarks) === HASH) afterMarks++;
  const level = afterMarks - open;
  if (level < 1 || level > 6) return null;
  if (afterMarks < line.length && !isBlank(line.charCodeAt(afterMarks))) return null;
  if (LINE_BREAK.test(line)) return null;
  let start = afterMarks;
  while (start < line.length && isBlank(line.charCodeAt(start))) start++;
  let end = trimBlankEnd(line, start, line.length);
  let closing = end;
  while (closing > start && line.charCodeAt(closing - 1) === HASH) closing--;
  // A closing run needs a blank before it inside the title: `# #` is a heading titled "#".
  if (closing < end && closing > start && isBlank(line.charCodeAt(closing - 1)))
    end = trimBlankEnd(line, start, closing);
  return { level, title: line.slice(start, end) };
}

function trimBlankEnd(line: string, start: number, end: number): number {
  while (end > start && isBlank(line.charCodeAt(end - 1))) end--;
  return end;
}

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB;
}
