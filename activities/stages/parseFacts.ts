import { stripPageMarkers } from '../../chunker/chunkPages';
import { textLanguage } from '../../tokenizer/textLanguage';

/**
 * The system fields a parse tells (contracts/searchFilter.ts): the last marked page (a PDF's last
 * page with text, its page count but for trailing blank pages; null for a type without pages) and the language of the text's start, as the second dense
 * vector's models tell it (`en` or `zh`). One pass over the markdown.
 */
export function parseFactsOf(markdown: string): { pageCount: number | null; language: string } {
  const { text, starts } = stripPageMarkers(markdown);
  const pageCount = starts.length === 0 ? null : starts.reduce((most, s) => Math.max(most, s.page), 0);
  return { pageCount, language: textLanguage(text) };
}
