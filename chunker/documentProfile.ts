import { splitBlocks } from './blocks';
import { splitPages } from './pageMarkers';
import { splitSections } from './splitSections';
import { endsWithQuestionMark, isQuestionLine } from './strategies/questionLine';

/** The structure a plan is recommended from: counts only, so it is cheap to log and to test. */
export interface DocumentProfile {
  /** The detected source type (parsers/detectFileType.ts), or null when unknown. */
  fileType: string | null;
  chars: number;
  headings: number;
  /** Deepest heading level in use (1–6); 0 without headings. */
  headingDepth: number;
  /** Headings ending in a question mark, plus question lines ("Q: …") in bodies. */
  questions: number;
  /** Share of the body characters that sit in pipe tables (0–1). */
  tableShare: number;
  tableRows: number;
  /** PDF pages marked by the parser (0: none); a PPTX's slides are its top-level headings. */
  pages: number;
}

/** One pass over the sections, one over each body's blocks and lines: linear in the markdown. */
export function documentProfile(markdown: string, fileType: string | null): DocumentProfile {
  let headings = 0;
  let headingDepth = 0;
  let questions = 0;
  let tableChars = 0;
  let bodyChars = 0;
  let tableRows = 0;
  for (const section of splitSections(markdown)) {
    if (section.heading !== null) {
      headings++;
      headingDepth = Math.max(headingDepth, section.path.length);
      if (endsWithQuestionMark(section.path[section.path.length - 1] ?? '')) questions++;
    }
    for (const block of splitBlocks(section.body)) {
      bodyChars += block.text.length;
      if (block.kind === 'table') {
        tableChars += block.text.length;
        tableRows += countLines(block.text);
      } else if (block.kind === 'text') questions += questionLines(block.text);
    }
  }
  const pages = markdown.includes('<!-- sluice:page ') ? splitPages(markdown).length : 0;
  return {
    fileType,
    chars: markdown.length,
    headings,
    headingDepth,
    questions,
    tableShare: bodyChars === 0 ? 0 : tableChars / bodyChars,
    tableRows,
    pages,
  };
}

function countLines(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

function questionLines(text: string): number {
  let count = 0;
  for (let pos = 0; pos < text.length;) {
    const newline = text.indexOf('\n', pos);
    const end = newline < 0 ? text.length : newline;
    if (end - pos <= 1000 && isQuestionLine(text.slice(pos, end))) count++;
    pos = end + 1;
  }
  return count;
}
