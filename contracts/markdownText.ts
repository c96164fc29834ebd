/**
 * Text from users (file names, dataset and user ids) as it goes into what the Temporal Web UI
 * renders as markdown: activity summaries, a run's summary and details. Pure: workflow code uses it.
 */

// Control (Cc) and format (Cf) characters, lone surrogates (Cs), line and paragraph separators.
// A bidi override or a zero-width character makes a name display as another.
export const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;
// Of those, the ones that break a line or separate words: a space keeps the words apart.
const BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]/u;

// Every character that opens inline markup: emphasis, code, links and images, raw HTML and
// autolinks, strikethrough, table cells, and the escape itself.
const INLINE_MARKUP = /[\\`*[\]<>~|]/g;
// `_` makes emphasis only at a word's edge: snake_case names stay as they read in plain text.
const EDGE_UNDERSCORE = /(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
// `&lt;` and `&#60;` would render as the characters they name.
const ENTITY_START = /&(?=#?[A-Za-z0-9]+;)/g;

/**
 * The text on one line, shown literally: unprintable characters dropped (line breaks become
 * spaces) and every markdown or HTML construct escaped, cut to `max` characters.
 */
export function markdownLiteral(text: string, max: number): string {
  const printable = text.replace(UNPRINTABLE, (ch) => (BREAKING.test(ch) ? ' ' : ''));
  // Cut by code point before escaping, so an escape is never cut in half.
  const points = [...printable];
  const clipped = points.length > max ? `${points.slice(0, max - 1).join('')}…` : printable;
  return clipped.replace(INLINE_MARKUP, '\\$&').replace(EDGE_UNDERSCORE, '\\_').replace(ENTITY_START, '\\&');
}
