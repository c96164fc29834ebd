import { MARKDOWN_BLOCKS, MARKDOWN_VOIDS, type HtmlElement, type HtmlText } from './htmlTree';

/** Whitespace that collapsing changes: most text nodes have none and are left as they are. */
const COLLAPSIBLE = /[\r\n\t]| {2}/;

/**
 * Collapses whitespace the way a browser lays it out (and as turndown's collapse-whitespace does):
 * each run becomes one space, and spaces at the edges of blocks and after a space go. <pre> keeps
 * its text. Text emptied this way leaves the tree. One walk with a stack of its own; an element
 * with children is met on the way in and on the way out, as in turndown.
 */
export function collapseWhitespace(root: HtmlElement): void {
  const state: { previous: HtmlText | undefined; keepLeadingSpace: boolean } = {
    previous: undefined,
    keepLeadingSpace: false,
  };
  const trimPrevious = (): void => {
    if (state.previous?.text.endsWith(' ')) state.previous.text = state.previous.text.slice(0, -1);
  };
  const visitElement = (element: HtmlElement): void => {
    if (MARKDOWN_BLOCKS.has(element.name) || element.name === 'br') {
      trimPrevious();
      state.previous = undefined;
      state.keepLeadingSpace = false;
    } else if (MARKDOWN_VOIDS.has(element.name)) {
      state.previous = undefined;
      state.keepLeadingSpace = true;
    } else if (state.previous) {
      state.keepLeadingSpace = false;
    }
  };
  const visitText = (node: HtmlText): void => {
    let text = COLLAPSIBLE.test(node.text) ? node.text.replace(/[ \r\n\t]+/g, ' ') : node.text;
    if ((!state.previous || state.previous.text.endsWith(' ')) && !state.keepLeadingSpace && text.startsWith(' '))
      text = text.slice(1);
    node.text = text;
    if (text !== '') state.previous = node;
  };

  const stack: { element: HtmlElement; next: number }[] = [{ element: root, next: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const child = frame.element.children[frame.next++];
    if (child === undefined) {
      stack.pop();
      if (frame.element.children.length > 0 && stack.length > 0) visitElement(frame.element);
      continue;
    }
    if (child.kind === 'text') {
      visitText(child);
      continue;
    }
    visitElement(child);
    if (child.name !== 'pre' && child.children.length > 0) stack.push({ element: child, next: 0 });
  }
  trimPrevious();
  dropEmptyText(root);
}

function dropEmptyText(root: HtmlElement): void {
  const pending: HtmlElement[] = [root];
  for (let element = pending.pop(); element; element = pending.pop()) {
    if (element.name === 'pre') continue;
    element.children = element.children.filter((child) => child.kind === 'element' || child.text !== '');
    for (const child of element.children) if (child.kind === 'element') pending.push(child);
  }
}
