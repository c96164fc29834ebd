/**
 * The small tree htmlToMarkdown builds in its one parse: only what boilerplate removal and the
 * markdown rules read, so that building it costs little more than tokenizing.
 */

/** The attributes any later step reads; every other attribute is skipped while tokenizing. */
export const READ_ATTRIBUTES = new Set([
  'class',
  'id',
  'role',
  'aria-hidden',
  'href',
  'title',
  'src',
  'alt',
  'start',
  'colspan',
  'rowspan',
]);

export interface HtmlElement {
  readonly kind: 'element';
  name: string;
  readonly attrs: ReadonlyMap<string, string>;
  children: HtmlNode[];
  /** Turndown's "not blank": some non-space text, or a void or meaningful-when-blank element, inside. */
  filled: boolean;
  /** Content containers and h1/h2 inside (see SubtreeMark), for boilerplate removal. */
  marks: number;
}

export interface HtmlText {
  readonly kind: 'text';
  text: string;
}

export type HtmlNode = HtmlElement | HtmlText;

export const SubtreeMark = { container: 1, h1: 2, h2: 4 } as const;

/** Shared by the many elements without an attribute that matters. */
export const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map();

export function newElement(name: string, attrs: ReadonlyMap<string, string> = NO_ATTRIBUTES): HtmlElement {
  return { kind: 'element', name, attrs, children: [], filled: false, marks: 0 };
}

const set = (names: string): ReadonlySet<string> => new Set(names.split(' '));

/** Turndown's block elements: a block is set off by blank lines and trims the spaces around it. */
export const MARKDOWN_BLOCKS = set(
  'address article aside audio blockquote body canvas center dd dir div dl dt fieldset figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html isindex li main menu nav noframes noscript ol output p pre section table tbody td tfoot th thead tr ul',
);

/** Turndown's void elements: they count as content even without text. */
export const MARKDOWN_VOIDS = set(
  'area base br col command embed hr img input keygen link meta param source track wbr',
);

/** Elements that are kept even when they hold no text (turndown's "meaningful when blank"). */
export const MEANINGFUL_WHEN_BLANK = set('a table thead tbody tfoot th td iframe script audio video');

/** All the text inside, without a recursion as deep as the tree. */
export function textContent(root: HtmlNode): string {
  if (root.kind === 'text') return root.text;
  const parts: string[] = [];
  const pending: HtmlNode[] = [root];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.kind === 'text') parts.push(node.text);
    else for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i]!);
  }
  return parts.join('');
}

/** The elements under root in document order (root excluded), each handed to visit; `false` skips its subtree. */
export function walkElements(root: HtmlElement, visit: (element: HtmlElement) => boolean | void): void {
  const pending: HtmlElement[] = [];
  const pushChildren = (element: HtmlElement): void => {
    for (let i = element.children.length - 1; i >= 0; i--) {
      const child = element.children[i]!;
      if (child.kind === 'element') pending.push(child);
    }
  };
  pushChildren(root);
  for (let element = pending.pop(); element; element = pending.pop()) {
    if (visit(element) !== false) pushChildren(element);
  }
}
