/** What JavaScript's `\s` matches, tested one character at a time. */
const WHITESPACE = /\s/;

const DOCUMENT_TAGS = ['html', 'head', 'body'];

/**
 * Whether text starts as an HTML *document*: a doctype or an html/head/body tag, possibly after
 * whitespace, comments or an XML declaration. Text that merely mentions a tag further down (a
 * README with an HTML snippet) is not one. A single forward scan, as an HTML parser reads: a
 * comment ends at its first `-->`, so no prefix is ever read twice (a regex with alternatives under
 * `*` tried every way to split a run of comments: 2^n steps for n empty comments).
 */
export function startsAsHtmlDocument(text: string): boolean {
  let i = skipProlog(text);
  if (i < 0 || text[i] !== '<') return false;
  i++;
  if (startsWithIgnoringCase(text, '!doctype', i)) {
    i += '!doctype'.length;
    const name = skipWhitespace(text, i);
    return name > i && startsWithIgnoringCase(text, 'html', name) && endsTagName(text, name + 'html'.length);
  }
  return DOCUMENT_TAGS.some((tag) => startsWithIgnoringCase(text, tag, i) && endsTagName(text, i + tag.length));
}

/** Index of the first character after leading whitespace, comments and XML declarations; -1 when one is unterminated. */
function skipProlog(text: string): number {
  let i = 0;
  for (;;) {
    i = skipWhitespace(text, i);
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + '<!--'.length);
      if (end < 0) return -1;
      i = end + '-->'.length;
    } else if (startsWithIgnoringCase(text, '<?xml', i)) {
      // The declaration ends at its first `>`, which must close it as `?>`.
      const end = text.indexOf('>', i + '<?xml'.length);
      if (end < 0 || text[end - 1] !== '?') return -1;
      i = end + 1;
    } else {
      return i;
    }
  }
}

function skipWhitespace(text: string, from: number): number {
  let i = from;
  while (i < text.length && WHITESPACE.test(text[i]!)) i++;
  return i;
}

function startsWithIgnoringCase(text: string, prefix: string, at: number): boolean {
  return text.slice(at, at + prefix.length).toLowerCase() === prefix;
}

/** A tag name ends at whitespace, `>` or `/`; the end of the text does not count. */
function endsTagName(text: string, at: number): boolean {
  const next = text[at];
  return next !== undefined && (next === '>' || next === '/' || WHITESPACE.test(next));
}
