import { load, type CheerioAPI } from 'cheerio';
import TurndownService from 'turndown';
import { removeBoilerplate } from './htmlBoilerplate';
import { limitHtmlNesting } from './htmlNesting';
import { addMarkdownTableRule } from './markdownTableRule';
import { addPreCodeRule } from './preCodeRule';

/**
 * A source line break between two Chinese/Japanese characters. Browsers drop it (CSS Text's
 * segment break rules), but turndown turns it into a space, which splits words ("组成， 每个").
 * Hangul is excluded: Korean separates words with spaces.
 */
const CJK_LINE_BREAK =
  /(?<=[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef])[ \t]*\r?\n\s*(?=[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef])/gu;

const turndown = createTurndown();

export function htmlToMarkdown(html: string): string {
  const $ = load(limitHtmlNesting(html));
  removeBoilerplate($);

  joinCjkLineBreaks($);

  const root = pickContentRoot($);
  const title = $('title').first().text().trim();
  // Generated docs (DocBook) often give a page no h1 but repeat its <title> as the first h2, with
  // the page's own sections as sibling h2s: promoted, the title becomes the root of every path.
  const firstHeading = $(root).find('h1, h2, h3').first();
  const repeatsTitle = !firstHeading.is('h1') && title !== '' && normalizeSpace(firstHeading.text()) === normalizeSpace(title);
  if (repeatsTitle) firstHeading.replaceWith($('<h1></h1>').html(firstHeading.html() ?? ''));
  const hasOwnTitle = repeatsTitle || firstHeading.is('h1');
  const body = turndown.turndown($.html(root));
  // Without an h1 the chunker would have no section path at all; the <title> gives one.
  const markdown = !hasOwnTitle && title ? `# ${title}\n\n${body}` : body;
  return markdown.replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * Prefers an explicit content container. Several <article>s (a blog index) have no single main
 * one, so the whole body is kept then.
 */
function pickContentRoot($: CheerioAPI) {
  const main = $('main, [role=main]');
  if (main.length > 0) return main.first();
  const articles = $('article');
  return articles.length === 1 ? articles : $('body');
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The slice of domhandler's nodes (under cheerio) that the line-break walk reads and writes. */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  children?: DomNode[];
}

/** Code keeps its line breaks. */
const KEEPS_LINE_BREAKS = new Set(['pre', 'code', 'textarea']);

/**
 * A walk with a stack of its own: cheerio's `contents()` over every element concatenates its
 * result one element at a time, which is quadratic on a page of many elements.
 */
function joinCjkLineBreaks($: CheerioAPI): void {
  const pending: DomNode[] = $('body').toArray();
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.type === 'text' && node.data !== undefined) node.data = node.data.replace(CJK_LINE_BREAK, '');
    else if (node.children && !(node.type === 'tag' && KEEPS_LINE_BREAKS.has(node.name ?? ''))) {
      for (const child of node.children) pending.push(child);
    }
  }
}

/**
 * Turndown escapes every `_`, which would turn identifiers such as pg_stat_activity into
 * pg\_stat\_activity in every chunk and in the keyword index. An underscore inside a word cannot
 * start emphasis in CommonMark, so it needs no escape.
 */
function escapeMarkdown(service: TurndownService, text: string): string {
  return TurndownService.prototype.escape.call(service, text).replace(/(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu, '_');
}

function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    hr: '---',
  });
  service.escape = (text) => escapeMarkdown(service, text);
  addMarkdownTableRule(service);
  addPreCodeRule(service);
  return service;
}
