/** Turndown's escapes: characters in text that markdown would read as markup. */
const ESCAPES: readonly [RegExp, string][] = [
  [/\\/g, '\\\\'],
  [/\*/g, '\\*'],
  [/^-/g, '\\-'],
  [/^\+ /g, '\\+ '],
  [/^(=+)/g, '\\$1'],
  [/^(#{1,6}) /g, '\\$1 '],
  [/`/g, '\\`'],
  [/^~~~/g, '\\~~~'],
  [/\[/g, '\\['],
  [/\]/g, '\\]'],
  [/^>/g, '\\>'],
  [/_/g, '\\_'],
  [/^(\d+)\. /g, '$1\\. '],
];

/** Text that none of the escapes touch: most text nodes, answered with one scan. */
const ESCAPED_ANYWHERE = /[\\*`[\]_]/;
const ESCAPED_AT_START = /^[-+=#~>\d]/;

/** An underscore inside a word cannot start emphasis in CommonMark, so it keeps identifiers such as pg_stat_activity whole. */
const INNER_UNDERSCORE = /(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu;

export function escapeMarkdown(text: string, keepInnerUnderscores = true): string {
  if (!ESCAPED_ANYWHERE.test(text) && !ESCAPED_AT_START.test(text)) return text;
  let escaped = text;
  for (const [pattern, replacement] of ESCAPES) escaped = escaped.replace(pattern, replacement);
  return keepInnerUnderscores ? escaped.replace(INNER_UNDERSCORE, '_') : escaped;
}
