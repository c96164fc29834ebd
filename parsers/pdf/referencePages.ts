/**
 * Tables of contents and back-of-book indexes repeat the document's titles and terms with page
 * numbers: indexed as content they outrank the passages they point to. A page is one when most
 * of its lines are locators and several carry a strong sign of it (dot leaders, a comma before
 * the page numbers); a plain "Title 21" line alone is too common in prose and tables to decide.
 */

/** Lines longer than this are prose, never a locator (and patterns only ever see short lines). */
const MAX_LOCATOR_CHARS = 200;
/** Share of a page's lines (group letters such as "A" aside) that must be locators. */
const MIN_LOCATOR_SHARE = 0.6;
/** Strong locators a page needs; fewer when it follows such a page (the short last page of a TOC). */
const MIN_STRONG = 5;
const MIN_STRONG_AFTER_REFERENCE = 0;

const PAGE = String.raw`(?:\d{1,5}|[ivxlc]{1,6})`;
/** "Arrays . . . . . 20", "2 Simple manipulations . . 8", "R and the window system. . . 3". */
const LEADER_LOCATOR = new RegExp(String.raw`\.\s?\.\s*${PAGE}$`, 'i');
/** Index entries: "glob2rx, 270, 339", "anova . . . 58, 60", "Classes 16, 52", "gpar, 880, 888,". */
const COMMA_LOCATOR = /,\s?\d{1,5}(?:[–-]\d{1,5})?,?$/;
const LETTER = /\p{L}/u;
/** The continuation line of a long index entry: "1095, 1099, 1104–1106,". */
const NUMBERS_ONLY = /^\d{1,5}(?:[–-]\d{1,5})?(?:,\s?\d{1,5}(?:[–-]\d{1,5})?)*,?$/;
/** "1 The base package 1", "Copyright 21": weak, counted towards the share only. */
const PLAIN_LOCATOR = new RegExp(String.raw`\p{L}\S*\s+${PAGE}$`, 'iu');

/**
 * Whether a page's lines (raw text, before dot leaders are cleaned away) make a table of contents
 * or index page. `afterReference` relaxes the count for the tail page of one that spans pages.
 */
export function isReferencePage(texts: readonly string[], afterReference: boolean): boolean {
  let counted = 0;
  let strong = 0;
  let weak = 0;
  for (const raw of texts) {
    const text = raw.trim();
    if (text.length <= 1) continue;
    counted++;
    if (text.length > MAX_LOCATOR_CHARS) continue;
    if (LEADER_LOCATOR.test(text) || (COMMA_LOCATOR.test(text) && LETTER.test(text)) || NUMBERS_ONLY.test(text))
      strong++;
    else if (PLAIN_LOCATOR.test(text)) weak++;
  }
  const needed = afterReference ? MIN_STRONG_AFTER_REFERENCE : MIN_STRONG;
  return counted > 0 && strong >= needed && strong + weak >= counted * MIN_LOCATOR_SHARE;
}
