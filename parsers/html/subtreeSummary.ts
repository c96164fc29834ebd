import { isContentContainer } from '../htmlBoilerplate';
import { MARKDOWN_VOIDS, MEANINGFUL_WHEN_BLANK, SubtreeMark, type HtmlElement } from './htmlTree';

/** What boilerplate removal and the blank rule read of a closed element's subtree. */
export function summarize(element: HtmlElement): void {
  let filled = MARKDOWN_VOIDS.has(element.name) || MEANINGFUL_WHEN_BLANK.has(element.name);
  let marks = isContentContainer(element) ? SubtreeMark.container : 0;
  if (element.name === 'h1') marks |= SubtreeMark.h1;
  if (element.name === 'h2') marks |= SubtreeMark.h2;
  for (const child of element.children) {
    if (child.kind === 'element') {
      filled ||= child.filled;
      marks |= child.marks;
    } else if (!filled && /\S/.test(child.text)) filled = true;
  }
  element.filled = filled;
  element.marks = marks;
}
