import { isContentContainer } from './htmlBoilerplate';
import { collapseWhitespace } from './html/collapseWhitespace';
import { newElement, textContent, walkElements, type HtmlElement, type HtmlNode } from './html/htmlTree';
import { renderMarkdown } from './html/renderMarkdown';
import { parseHtmlPage } from './html/treeBuilder';

/**
 * One parse (htmlparser2's tokenizer building a small tree, boilerplate removed as it goes) and
 * one walk that writes the markdown: every step linear in the page.
 */
export function htmlToMarkdown(html: string): string {
  const { root, title } = parseHtmlPage(html);
  const content = pickContentRoot(root);
  // Generated docs (DocBook) often give a page no h1 but repeat its <title> as the first h2, with
  // the page's own sections as sibling h2s: promoted, the title becomes the root of every path.
  const firstHeading = findFirst(
    content,
    (element) => element.name === 'h1' || element.name === 'h2' || element.name === 'h3',
  );
  const repeatsTitle =
    firstHeading !== undefined &&
    firstHeading.name !== 'h1' &&
    title !== '' &&
    normalizeSpace(textContent(firstHeading)) === normalizeSpace(title);
  if (repeatsTitle) firstHeading.name = 'h1';
  const hasOwnTitle = repeatsTitle || firstHeading?.name === 'h1';
  collapseWhitespace(content);
  const body = renderMarkdown(content);
  // Without an h1 the chunker would have no section path at all; the <title> gives one.
  const markdown = !hasOwnTitle && title ? `# ${title}\n\n${body}` : body;
  return markdown.replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * Prefers an explicit content container. Several <article>s (a blog index) have no single main
 * one, so the whole body is kept then.
 */
function pickContentRoot(root: HtmlElement): HtmlElement {
  let main: HtmlElement | undefined;
  const articles: HtmlElement[] = [];
  walkElements(root, (element) => {
    if (element.name === 'article') articles.push(element);
    else if (isContentContainer(element)) main ??= element;
  });
  if (main) return main;
  return articles.length === 1 ? articles[0]! : documentBody(root);
}

/** Everything but the <head>: text the parser would have put into <body> can sit around it. */
function documentBody(root: HtmlElement): HtmlElement {
  const body = newElement('body');
  const keep = (node: HtmlNode): void => {
    if (node.kind === 'text' || node.name !== 'head') body.children.push(node);
  };
  for (const node of root.children) {
    if (node.kind === 'element' && node.name === 'html') node.children.forEach(keep);
    else keep(node);
  }
  return body;
}

function findFirst(root: HtmlElement, matches: (element: HtmlElement) => boolean): HtmlElement | undefined {
  const found: HtmlElement[] = [];
  walkElements(root, (element) => {
    if (found.length === 0 && matches(element)) found.push(element);
    return found.length === 0;
  });
  return found[0];
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
