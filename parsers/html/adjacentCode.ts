import { newElement, type HtmlElement, type HtmlNode } from './htmlTree';

const isCode = (node: HtmlNode | undefined): node is HtmlElement => node?.kind === 'element' && node.name === 'code';

/**
 * Two code spans side by side cannot be written in markdown: "`PGDATA``/base`" is one span
 * holding two backticks. DocBook writes `<code>PGDATA</code><code>/base</code>`, so each run of
 * adjacent <code> siblings becomes one new <code> of their joined children (one scan; the same
 * array, untouched, when there is no such run).
 */
export function mergeAdjacentCode(children: HtmlNode[]): HtmlNode[] {
  let adjacent = false;
  for (let i = 1; i < children.length && !adjacent; i++) adjacent = isCode(children[i]) && isCode(children[i - 1]);
  if (!adjacent) return children;
  const merged: HtmlNode[] = [];
  let run: HtmlElement | undefined;
  for (const child of children) {
    const previous = merged[merged.length - 1];
    if (!isCode(child) || !isCode(previous)) {
      merged.push(child);
      continue;
    }
    if (run !== previous) {
      run = newElement('code', previous.attrs);
      append(run, previous);
      merged[merged.length - 1] = run;
    }
    append(run, child);
  }
  return merged;
}

function append(run: HtmlElement, code: HtmlElement): void {
  for (const node of code.children) run.children.push(node);
  run.filled ||= code.filled;
}
