import type TurndownService from 'turndown';

/** The slice of the DOM (domino, under turndown) that the rule reads. */
interface ElementLike {
  readonly textContent: string | null;
  querySelector(selector: string): { getAttribute(name: string): string | null } | null;
}

const LANGUAGE_CLASS = /(?:^|\s)lang(?:uage)?-([\w+#.-]{1,40})(?:\s|$)/;

/**
 * A <pre> is literal text whatever its children: DocBook wraps a prompt in its own <code> and the
 * command in <strong><code>, and turndown's fenced rule only reads a lone first <code> (keeping
 * "$" and dropping the command) while any other <pre> became escaped prose. Every <pre> becomes
 * one fenced block of its whole text.
 */
export function addPreCodeRule(service: TurndownService): void {
  service.addRule('preformatted', {
    filter: 'pre',
    replacement: (_content, node) => {
      const pre = node as unknown as ElementLike;
      const text = (pre.textContent ?? '').replace(/\n$/, '');
      const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
      const language = LANGUAGE_CLASS.exec(pre.querySelector('code')?.getAttribute('class') ?? '')?.[1] ?? '';
      return `\n\n${fence}${language}\n${text}\n${fence}\n\n`;
    },
  });
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
