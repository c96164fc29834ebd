import type { CheerioAPI } from 'cheerio';

/** Page chrome and non-content elements: they would pollute every chunk of the page. */
const BOILERPLATE = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'nav',
  'aside',
  'footer',
  '[role=navigation]',
  '[role=banner]',
  '[role=contentinfo]',
  '[role=complementary]',
  '[aria-hidden=true]',
].join(', ');

export const CONTENT_CONTAINERS = 'main, [role=main], article';

/**
 * Generated documentation (DocBook, Sphinx, Javadoc, most site generators) marks its chrome by
 * class or id rather than by element: DocBook's navheader/navfooter tables, a page's local table
 * of contents, breadcrumbs, sidebars.
 */
const CHROME_TOKEN = /^(nav|navbar|navheader|navfooter|navigation|breadcrumbs?|sidebar|menu|toc|footer|cookies?|banner|pagination|skip-?link)$/i;

/** Admonitions carry a heading ("Note") that would otherwise replace the real section in the path. */
const ADMONITIONS = '.note, .tip, .warning, .caution, .important, .admonition';

export function removeBoilerplate($: CheerioAPI): void {
  $(BOILERPLATE).remove();
  // A page header is chrome, but the content's own <header> usually carries its title.
  $('header')
    .filter((_, el) => $(el).closest(CONTENT_CONTAINERS).length === 0)
    .remove();
  // Search boxes and sign-up forms are chrome, but ASP.NET WebForms pages wrap everything in one.
  $('form')
    .filter((_, el) => $(el).find(`${CONTENT_CONTAINERS}, h1`).length === 0)
    .remove();
  $('[class], [id]')
    .filter((_, el) => isChrome($(el).attr('class'), $(el).attr('id')) && $(el).find(`${CONTENT_CONTAINERS}, h1, h2`).length === 0)
    .remove();
  $(ADMONITIONS)
    .find('h1, h2, h3, h4, h5, h6')
    .each((_, heading) => {
      $(heading).replaceWith(`<p><strong>${$(heading).html() ?? ''}</strong></p>`);
    });
}

function isChrome(classes: string | undefined, id: string | undefined): boolean {
  return [...(classes ?? '').split(/\s+/), id ?? ''].some((token) => CHROME_TOKEN.test(token));
}
