import { parseAtxHeading } from './atxHeading';

/** A heading and the body up to the next heading (of any level). */
export interface Section {
  /** Heading titles from the outermost to this section's own; empty before the first heading. */
  path: string[];
  /** The heading line as written, or null for the text before the first heading. */
  heading: string | null;
  body: string;
}

/**
 * Opening or closing code fence: 3+ backticks or tildes, up to 3 spaces of indent. The marker run
 * is taken whole by a look-ahead, which never backtracks: otherwise a line of backticks that `.*`
 * cannot finish (a line separator) is rescanned once for every backtick given back.
 */
const FENCE = /^ {0,3}(?=(`{3,}|~{3,}))\1(.*)$/;

interface OpenFence {
  char: string;
  length: number;
}

/**
 * Splits markdown into sections at ATX headings, skipping `#` lines inside fenced code (a shell
 * comment in a code sample is not a heading). Sections keep their text verbatim, line breaks
 * normalised to \n. Lines are walked by offset and a body is one slice of the markdown: only a
 * line that starts like a fence or a heading is matched against one.
 */
export function splitSections(input: string): Section[] {
  const markdown = input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input;
  const sections: Section[] = [];
  // A stack of levels rather than a plain index: after `#`, `###`, a `##` must drop the `###`.
  const headingStack: { level: number; title: string }[] = [];
  let current: { path: string[]; heading: string | null; bodyStart: number } = {
    path: [],
    heading: null,
    bodyStart: 0,
  };
  let fence: OpenFence | null = null;

  // A body ends before the line break that ends its last line.
  const close = (lineStart: number): void => {
    const end = Math.max(current.bodyStart, lineStart - 1);
    sections.push({ path: current.path, heading: current.heading, body: markdown.slice(current.bodyStart, end) });
  };

  for (let pos = 0; pos <= markdown.length;) {
    const newline = markdown.indexOf('\n', pos);
    const end = newline < 0 ? markdown.length : newline;
    const next = end + 1;
    const first = firstMark(markdown, pos);
    const fenceMatch = first === BACKTICK || first === TILDE ? FENCE.exec(markdown.slice(pos, end)) : null;
    if (fence) {
      if (fenceMatch && closesFence(fence, fenceMatch)) fence = null;
    } else if (fenceMatch && opensFence(fenceMatch)) {
      fence = { char: fenceMatch[1]!.charAt(0), length: fenceMatch[1]!.length };
    } else {
      const line = first === HASH ? markdown.slice(pos, end) : '';
      const heading = line === '' ? null : parseAtxHeading(line);
      if (heading) {
        close(pos);
        const { level } = heading;
        while (headingStack.length > 0 && headingStack[headingStack.length - 1]!.level >= level) headingStack.pop();
        // Whitespace is normalised (HTML headings often carry non-breaking spaces: "28.2.&nbsp;Title").
        headingStack.push({ level, title: heading.title.replace(/\s+/g, ' ').trim() });
        current = { path: headingStack.map((h) => h.title), heading: line, bodyStart: Math.min(next, markdown.length) };
      }
    }
    pos = next;
  }
  close(markdown.length + 1);
  return sections;
}

const SPACE = 0x20;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const HASH = 0x23;

/** The character after up to three spaces of indent: a fence or a heading needs a particular one there. */
function firstMark(text: string, start: number): number {
  let i = start;
  while (i < start + 3 && text.charCodeAt(i) === SPACE) i++;
  return text.charCodeAt(i);
}

/** A backtick fence's info string may not contain backticks (CommonMark), else it is inline code. */
function opensFence(match: RegExpExecArray): boolean {
  return !(match[1]!.startsWith('`') && match[2]!.includes('`'));
}

function closesFence(open: OpenFence, match: RegExpExecArray): boolean {
  const marker = match[1]!;
  return marker.charAt(0) === open.char && marker.length >= open.length && match[2]!.trim() === '';
}
