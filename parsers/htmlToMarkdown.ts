import { load, type CheerioAPI } from 'cheerio';
import TurndownService from 'turndown';
import { addMarkdownTableRule } from './markdownTableRule';

/** Page chrome and non-content elements: they would pollute every chunk of the page. */
const BOILERPLATE = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'form',
  'nav',
  'aside',
  'footer',
  '[role=navigation]',
  '[role=banner]',
  '[role=contentinfo]',
  '[role=complementary]',
  '[aria-hidden=true]',
].join(', ');

const turndown = createTurndown();

export function htmlToMarkdown(html: string): string {
  const $ = load(html);
  $(BOILERPLATE).remove();
  // A page header is chrome, but an article's own <header> usually carries its title.
  $('header')
    .filter((_, el) => $(el).closest('article').length === 0)
    .remove();

  const root = pickContentRoot($);
  const title = $('title').first().text().trim();
  const hasOwnTitle = $(root).find('h1').length > 0;
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

function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    hr: '---',
  });
  addMarkdownTableRule(service);
  return service;
}
