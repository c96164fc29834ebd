import { countTokens } from '../tokenizer/countTokens';

/** Between the titles of a section path in a child's first line. */
export const PATH_SEPARATOR = ' › ';

/**
 * The line that starts every child of a section: its section path ("Guide › Install › Linux"),
 * so the text that is embedded and indexed says what the child is about even when its own words
 * never name it (a table, a code block, the third child of a long section). '' before the first
 * heading. At most a quarter of maxTokens: the outermost titles go first, then the end of the
 * innermost one, so a hostile 100,000-character heading cannot crowd out the child's own text.
 */
export function sectionContext(path: readonly string[], maxTokens: number): string {
  const cap = Math.floor(maxTokens / 4);
  // An empty heading (`#` alone) names nothing.
  const titles = path.filter((title) => title !== '');
  for (let first = 0; first < titles.length; first++) {
    const line = titles.slice(first).join(PATH_SEPARATOR);
    // Each title costs at least one token, so a path longer than the cap is never tried whole.
    if (titles.length - first <= cap && countTokens(line) <= cap) return line;
  }
  return titles.length === 0 ? '' : truncated(titles[titles.length - 1]!, cap);
}

/** The longest start of `title` within `cap` tokens; shrinks in proportion, so a few passes do. */
function truncated(title: string, cap: number): string {
  let text = title.slice(0, cap * 4);
  let tokens = countTokens(text);
  while (tokens > cap && text !== '') {
    text = text.slice(0, Math.min(text.length - 1, Math.floor((text.length * cap) / tokens)));
    // Half an emoji is not text.
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) text = text.slice(0, -1);
    tokens = countTokens(text);
  }
  return text.trimEnd();
}
