import type { ChunkDraft } from '../../contracts/chunk';
import type { ChunkingParameters } from '../../contracts/chunkingPlan';
import { ChunkSink } from '../chunkSink';
import { splitSections, type Section } from '../splitSections';
import { endsWithQuestionMark, isQuestionLine, questionTitle } from './questionLine';

/**
 * `qa`: one parent per question with its answer, and the answer as one child led by the question
 * (split further only when it is over childTokens), so a hit is a whole answer. A question is a
 * heading ending in a question mark (its answer runs over the sections nested under it), or a
 * question line inside a section (isQuestionLine; its answer runs to the next one). Text that
 * answers no question becomes a parent of its own, cut as `general` would cut it.
 */
export function qaChunks(
  documentId: string,
  markdown: string,
  parameters: ChunkingParameters,
  maxChunks: number,
): ChunkDraft[] {
  const sink = new ChunkSink(documentId, maxChunks);
  const { childTokens, overlapTokens } = parameters;
  const sections = splitSections(markdown);
  for (let i = 0; i < sections.length; i++) {
    const section = sections[i]!;
    const title = section.path[section.path.length - 1] ?? '';
    if (section.heading !== null && endsWithQuestionMark(title)) {
      // The answer: this body and every section nested under the question.
      const parts = [section.body.trim()];
      while (i + 1 < sections.length && isNestedUnder(sections[i + 1]!, section)) {
        const nested = sections[++i]!;
        parts.push(`${nested.heading!.trim()}\n\n${nested.body.trim()}`);
      }
      const answer = parts.filter((part) => part !== '').join('\n\n');
      if (answer === '') continue;
      sink.addParent(section.path, `${section.heading.trim()}\n\n${answer}`, answer, childTokens, overlapTokens, [
        answer,
      ]);
      continue;
    }
    for (const unit of questionUnits(section)) {
      const pieces = unit.question ? [unit.text] : undefined;
      sink.addParent(unit.path, unit.parentText, unit.text, childTokens, overlapTokens, pieces);
    }
  }
  return sink.chunks;
}

interface Unit {
  path: string[];
  parentText: string;
  text: string;
  question: boolean;
}

/** A section's body cut at its question lines: the text before the first, then each question with its answer. */
function questionUnits(section: Section): Unit[] {
  const units: Unit[] = [];
  const headed = (text: string): string => (section.heading === null ? text : `${section.heading.trim()}\n\n${text}`);
  let start = 0;
  let question: string | null = null;
  const close = (end: number): void => {
    const text = section.body.slice(start, end).trim();
    if (text === '') return;
    if (question === null) units.push({ path: section.path, parentText: headed(text), text, question: false });
    else units.push({ path: [...section.path, questionTitle(question)], parentText: text, text, question: true });
  };
  const body = section.body;
  for (let pos = 0; pos < body.length;) {
    const newline = body.indexOf('\n', pos);
    const end = newline < 0 ? body.length : newline;
    // A question line is short; a long line is an answer's paragraph however it ends.
    if (end - pos <= 1000 && isQuestionLine(body.slice(pos, end))) {
      close(pos);
      start = pos;
      question = body.slice(pos, end);
    }
    pos = end + 1;
  }
  close(body.length);
  return units;
}

function isNestedUnder(next: Section, section: Section): boolean {
  return next.path.length > section.path.length && section.path.every((title, i) => next.path[i] === title);
}
