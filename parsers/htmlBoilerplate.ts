import { newElement, SubtreeMark, type HtmlElement } from './html/htmlTree';

/**
 * Boilerplate removal, decided for each element as the tree builder closes it: by then its
 * subtree is complete (and already cleaned), and its ancestors are the open elements, so each
 * decision costs the element's own children and no selector search.
 */

/** Page chrome and non-content elements: they would pollute every chunk of the page. */
const BOILERPLATE_ELEMENTS = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'nav', 'aside', 'footer']);
const BOILERPLATE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary']);

/**
 * Generated documentation (DocBook, Sphinx, Javadoc, most site generators) marks its chrome by
 * class or id rather than by element: DocBook's navheader/navfooter tables, a page's local table
 * of contents, breadcrumbs, sidebars.
 */
const CHROME_WORDS =
  'nav|navbar|navheader|navfooter|navigation|breadcrumbs?|sidebar|menu|toc|footer|cookies?|banner|pagination|skip-?link';
const CHROME_ID = new RegExp(`^(?:${CHROME_WORDS})$`, 'i');
/** One of the space-separated class tokens is a chrome word: one scan, no split. */
const CHROME_CLASS = new RegExp(`(?:^|\\s)(?:${CHROME_WORDS})(?=\\s|$)`, 'i');

/** Admonitions carry a heading ("Note") that would otherwise replace the real section in the path. */
const ADMONITION_CLASS = /(?:^|\s)(?:note|tip|warning|caution|important|admonition)(?=\s|$)/;

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** main, [role=main] and article: the page's own content, whose header and forms are kept. */
export function isContentContainer(element: HtmlElement): boolean {
  return element.name === 'main' || element.name === 'article' || element.attrs.get('role') === 'main';
}

export function isAdmonition(element: HtmlElement): boolean {
  const classes = element.attrs.get('class');
  return classes !== undefined && ADMONITION_CLASS.test(classes);
}

/** Where the element being closed sits: inside a content container, inside an admonition (itself excluded). */
export interface Surroundings {
  inContainer: boolean;
  inAdmonition: boolean;
}

/** False when the element is chrome and leaves the tree; an admonition's heading becomes bold text. */
export function keepsElement(element: HtmlElement, around: Surroundings): boolean {
  if (isBoilerplate(element)) return false;
  // A page header is chrome, but the content's own <header> usually carries its title.
  if (element.name === 'header' && !around.inContainer && !isContentContainer(element)) return false;
  // Search boxes and sign-up forms are chrome, but ASP.NET WebForms pages wrap everything in one.
  if (element.name === 'form' && (element.marks & (SubtreeMark.container | SubtreeMark.h1)) === 0) return false;
  if (isChrome(element) && (element.marks & (SubtreeMark.container | SubtreeMark.h1 | SubtreeMark.h2)) === 0)
    return false;
  if (around.inAdmonition && HEADINGS.has(element.name)) demoteHeading(element);
  return true;
}

function isBoilerplate(element: HtmlElement): boolean {
  if (BOILERPLATE_ELEMENTS.has(element.name)) return true;
  const role = element.attrs.get('role');
  return (role !== undefined && BOILERPLATE_ROLES.has(role)) || element.attrs.get('aria-hidden') === 'true';
}

function isChrome(element: HtmlElement): boolean {
  const classes = element.attrs.get('class');
  const id = element.attrs.get('id');
  if (id !== undefined && CHROME_ID.test(id)) return true;
  return classes !== undefined && CHROME_CLASS.test(classes);
}

/** `<h3>Note</h3>` becomes `<p><strong>Note</strong></p>`. */
function demoteHeading(heading: HtmlElement): void {
  const strong = newElement('strong');
  strong.children = heading.children;
  strong.filled = heading.filled;
  heading.children = [strong];
  heading.name = 'p';
}
