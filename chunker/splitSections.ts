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
 * comment in a code sample is not a heading). Sections keep their text verbatim.
 */
export function splitSections(markdown: string): Section[] {
  const lines = markdown.split(/\r\n?|\n/);
  const sections: Section[] = [];
  // A stack of levels rather than a plain index: after `#`, `###`, a `##` must drop the `###`.
  const headingStack: { level: number; title: string }[] = [];
  let current: { path: string[]; heading: string | null; bodyLines: string[] } = {
    path: [],
    heading: null,
    bodyLines: [],
  };
  let fence: OpenFence | null = null;

  const close = (): void => {
    sections.push({ path: current.path, heading: current.heading, body: current.bodyLines.join('\n') });
  };

  for (const line of lines) {
    const fenceMatch = FENCE.exec(line);
    if (fence) {
      if (fenceMatch && closesFence(fence, fenceMatch)) fence = null;
      current.bodyLines.push(line);
      continue;
    }
    if (fenceMatch && opensFence(fenceMatch)) {
      fence = { char: fenceMatch[1]!.charAt(0), length: fenceMatch[1]!.length };
      current.bodyLines.push(line);
      continue;
    }
    const heading = parseAtxHeading(line);
    if (!heading) {
      current.bodyLines.push(line);
      continue;
    }
    close();
    const { level } = heading;
    while (headingStack.length > 0 && headingStack[headingStack.length - 1]!.level >= level) headingStack.pop();
    // Whitespace is normalised (HTML headings often carry non-breaking spaces: "28.2.&nbsp;Title").
    headingStack.push({ level, title: heading.title.replace(/\s+/g, ' ').trim() });
    current = { path: headingStack.map((h) => h.title), heading: line, bodyLines: [] };
  }
  close();
  return sections;
}

/** A backtick fence's info string may not contain backticks (CommonMark), else it is inline code. */
function opensFence(match: RegExpExecArray): boolean {
  return !(match[1]!.startsWith('`') && match[2]!.includes('`'));
}

function closesFence(open: OpenFence, match: RegExpExecArray): boolean {
  const marker = match[1]!;
  return marker.charAt(0) === open.char && marker.length >= open.length && match[2]!.trim() === '';
}
