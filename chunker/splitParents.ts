import { joinTallies, tallyTokens, tokensOfTally, type TokenTally } from '../tokenizer/countTokens';
import { splitBlocks } from './blocks';
import { splitCode, splitTable } from './splitBlock';
import { splitText } from './splitText';

const BLANK_LINE = tallyTokens('\n\n');
const PARAGRAPH_BREAK = /\n[ \t]*\n\s*/;

/**
 * The bodies of a section's parents under parentTokens. Each repeats the section's heading, so a
 * parent read alone still says what it is about, unless the heading would take more than half of
 * a parent; then the heading is cut with the body and leads only the first part.
 */
export function sectionParents(
  heading: string | null,
  body: string,
  headed: boolean,
  parentTokens: number,
): { parts: string[]; repeatHeading: boolean } {
  if (!headed || heading === null) return { parts: splitParents(body, parentTokens), repeatHeading: false };
  const title = heading.trim();
  const headingTokens = tokensOfTally(joinTallies(tallyTokens(title), BLANK_LINE));
  if (headingTokens * 2 > parentTokens)
    return { parts: splitParents(`${title}\n\n${body}`, parentTokens), repeatHeading: false };
  return { parts: splitParents(body, parentTokens - headingTokens), repeatHeading: true };
}

interface Unit {
  text: string;
  tally: TokenTally;
}

/**
 * Cuts a section body into parents of at most maxTokens each (`general` with parentTokens set):
 * paragraphs, tables and code blocks are packed whole, in order, joined by a blank line; only a
 * unit larger than a whole parent is cut, a paragraph at its sentences and clauses (splitText), a
 * table between rows with its header repeated, code between lines. Each unit is tallied once and
 * the packed counts are joined from the tallies, so the body is scanned a bounded number of times.
 */
export function splitParents(body: string, maxTokens: number): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  let tally: TokenTally | null = null;
  for (const unit of unitsOf(body, maxTokens)) {
    const joined: TokenTally = tally === null ? unit.tally : joinTallies(joinTallies(tally, BLANK_LINE), unit.tally);
    if (tally !== null && tokensOfTally(joined) > maxTokens) {
      parts.push(current.join('\n\n'));
      [current, tally] = [[unit.text], unit.tally];
      continue;
    }
    current.push(unit.text);
    tally = joined;
  }
  if (current.length > 0) parts.push(current.join('\n\n'));
  return parts;
}

function* unitsOf(body: string, maxTokens: number): Generator<Unit> {
  const splitLong = (text: string, budget: number) => splitText(text, budget, 0).children.map((c) => c.text);
  for (const block of splitBlocks(body)) {
    if (block.kind !== 'text') {
      const text = block.text.trimEnd();
      const tally = tallyTokens(text);
      if (tokensOfTally(tally) <= maxTokens) yield { text, tally };
      else {
        const cut = block.kind === 'table' ? splitTable : splitCode;
        for (const part of cut(text, maxTokens, splitLong)) yield { text: part, tally: tallyTokens(part) };
      }
      continue;
    }
    for (const raw of block.text.split(PARAGRAPH_BREAK)) {
      const text = raw.trim();
      if (text === '') continue;
      const tally = tallyTokens(text);
      if (tokensOfTally(tally) <= maxTokens) yield { text, tally };
      else for (const child of splitText(text, maxTokens, 0).children) yield { text: child.text, tally: child.tally };
    }
  }
}
