import { textContent, walkElements, type HtmlElement } from './html/htmlTree';
import type { Piece } from './html/markdownPiece';

const LANGUAGE_CLASS = /(?:^|\s)lang(?:uage)?-([\w+#.-]{1,40})(?:\s|$)/;

/**
 * A <pre> is literal text whatever its children: DocBook wraps a prompt in its own <code> and the
 * command in <strong><code>, so every <pre> becomes one fenced block of its whole text, prompt and
 * command together, with the language of its first <code> when that names one.
 */
export function preformattedBlock(pre: HtmlElement): Piece {
  const text = textContent(pre).replace(/\n$/, '');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  const language = LANGUAGE_CLASS.exec(firstCodeClass(pre))?.[1] ?? '';
  return { lead: 2, body: `${fence}${language}\n${text}\n${fence}`, trail: 2 };
}

function firstCodeClass(pre: HtmlElement): string {
  const found: HtmlElement[] = [];
  walkElements(pre, (element) => {
    if (element.name === 'code') found.push(element);
    return found.length === 0;
  });
  return found[0]?.attrs.get('class') ?? '';
}

/** A fence longer than any backtick run inside cannot be closed early by the code itself. */
export function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 96 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}
