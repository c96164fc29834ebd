/**
 * The parts of the HTML tree-construction rules (WHATWG §13.2.6) that decide when an element
 * ends: which start tags end an open element implicitly, and how far down the open elements an
 * end tag may reach. html/treeBuilder.ts follows them to build the tree and bound its depth.
 */

const set = (names: string): ReadonlySet<string> => new Set(names.split(' '));

/** Elements that never have content or an end tag. */
export const VOID_ELEMENTS = set(
  'area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr',
);

/** Elements whose content the tokenizer reads as text up to their end tag, and the state it reads it in. */
export const RAW_TEXT_ELEMENTS: ReadonlyMap<string, 'RCDATA' | 'RAWTEXT' | 'SCRIPT_DATA' | 'PLAINTEXT'> = new Map([
  ['title', 'RCDATA'],
  ['textarea', 'RCDATA'],
  ['style', 'RAWTEXT'],
  ['xmp', 'RAWTEXT'],
  ['iframe', 'RAWTEXT'],
  ['noembed', 'RAWTEXT'],
  ['noframes', 'RAWTEXT'],
  // Parsers run with scripting enabled (parse5's default), where <noscript> holds raw text.
  ['noscript', 'RAWTEXT'],
  ['script', 'SCRIPT_DATA'],
  ['plaintext', 'PLAINTEXT'],
]);

export const FOREIGN_ROOTS = set('svg math');

/** Elements a flattened (too deep) tag is replaced by a line break for, so that words do not run together. */
export const BLOCK_ELEMENTS = set(
  'address article aside blockquote body caption center dd details dialog dir div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup html li listing main menu nav ol p pre search section summary table tbody td tfoot th thead tr ul',
);

/** The "special" category: an end tag of an ordinary element does not reach past one of these. */
const SPECIAL = set(
  'address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script search section select source style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp mi mo mn ms mtext annotation-xml foreignobject desc',
);

const SCOPE =
  'applet caption html table td th marquee object template mi mo mn ms mtext annotation-xml foreignobject desc title';
const DEFAULT_SCOPE = set(SCOPE);
const BUTTON_SCOPE = set(`${SCOPE} button`);
const LIST_ITEM_SCOPE = set(`${SCOPE} ol ul`);
const TABLE_SCOPE = set('html table template');
const TABLE_BODY_CONTEXT = set('html table template tbody thead tfoot');
const TABLE_ROW_CONTEXT = set('html table template tbody thead tfoot tr');
const LIST_ITEM_BOUNDARY = new Set([...SPECIAL].filter((name) => !['address', 'div', 'p'].includes(name)));

const HEADINGS = set('h1 h2 h3 h4 h5 h6');
const TABLE_ELEMENTS = set('table tbody thead tfoot tr td th caption');

/** Start tags that close an open <p> in button scope. */
const CLOSES_P = set(
  'address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer form header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre listing table hr xmp plaintext li dd dt',
);

/** An open element (any of `names`) that a start tag ends, searched for no further down than a boundary. */
export interface ImpliedEnd {
  names: ReadonlySet<string>;
  boundaries: ReadonlySet<string>;
  /** Only when it is the current (innermost) element. */
  currentOnly?: boolean;
}

const P_END: ImpliedEnd = { names: set('p'), boundaries: BUTTON_SCOPE };
const LI_END: ImpliedEnd = { names: set('li'), boundaries: LIST_ITEM_BOUNDARY };
const DD_DT_END: ImpliedEnd = { names: set('dd dt'), boundaries: LIST_ITEM_BOUNDARY };
const HEADING_END: ImpliedEnd = { names: HEADINGS, boundaries: SPECIAL, currentOnly: true };
const OPTION_END: ImpliedEnd = { names: set('option'), boundaries: SPECIAL, currentOnly: true };
const OPTGROUP_END: ImpliedEnd = { names: set('optgroup'), boundaries: SPECIAL, currentOnly: true };
const CELL_END: ImpliedEnd = { names: set('td th'), boundaries: TABLE_ROW_CONTEXT };
const ROW_END: ImpliedEnd = { names: set('tr'), boundaries: TABLE_BODY_CONTEXT };
const SECTION_END: ImpliedEnd = { names: set('tbody thead tfoot'), boundaries: TABLE_SCOPE };

/** Start tag → the open elements it ends, in the order the parser ends them. */
const IMPLIED_ENDS = new Map<string, readonly ImpliedEnd[]>([
  ['li', [LI_END, P_END]],
  ['dd', [DD_DT_END, P_END]],
  ['dt', [DD_DT_END, P_END]],
  ...[...HEADINGS].map((name): [string, ImpliedEnd[]] => [name, [P_END, HEADING_END]]),
  ...[...CLOSES_P]
    .filter((name) => !HEADINGS.has(name) && !['li', 'dd', 'dt'].includes(name))
    .map((name): [string, ImpliedEnd[]] => [name, [P_END]]),
  ['option', [OPTION_END]],
  ['optgroup', [OPTION_END, OPTGROUP_END]],
  ['td', [CELL_END]],
  ['th', [CELL_END]],
  ['tr', [ROW_END]],
  ['tbody', [SECTION_END]],
  ['thead', [SECTION_END]],
  ['tfoot', [SECTION_END]],
  ['body', [{ names: set('head'), boundaries: set('html') }]],
  ['a', [{ names: set('a'), boundaries: SPECIAL }]],
  ['button', [{ names: set('button'), boundaries: DEFAULT_SCOPE }]],
]);

export function impliedEnds(name: string): readonly ImpliedEnd[] {
  return IMPLIED_ENDS.get(name) ?? [];
}

/** How far down the open elements an end tag looks for its element before it is ignored. */
export function endTagBoundaries(name: string): ReadonlySet<string> {
  if (name === 'p') return BUTTON_SCOPE;
  if (name === 'li') return LIST_ITEM_SCOPE;
  if (TABLE_ELEMENTS.has(name)) return TABLE_SCOPE;
  return SPECIAL.has(name) ? DEFAULT_SCOPE : SPECIAL;
}

/** html, head and body are opened once; a second start tag only adds attributes. */
export function isIgnoredDocumentTag(name: string, isOpen: (name: string) => boolean): boolean {
  if (name === 'html') return isOpen('html');
  if (name === 'head') return isOpen('head') || isOpen('body');
  if (name === 'body') return isOpen('body');
  return false;
}
