import { nestedDivs } from '../../../bench/adversarialInputs';
import { walkElements, type HtmlElement } from '../../../parsers/html/htmlTree';
import { parseHtmlPage } from '../../../parsers/html/treeBuilder';
import { htmlToMarkdown } from '../../../parsers/htmlToMarkdown';
import { inTime } from '../adversarial/inTime';

const page = (body: string): string =>
  `<!DOCTYPE html><html><head><title>T</title></head><body><main><h1>T</h1>${body}</main></body></html>`;
const convert = (body: string): string => htmlToMarkdown(page(body)).replace(/^# T\n\n/, '');

function maxDepth(root: HtmlElement): number {
  const depths = new Map<HtmlElement, number>([[root, 0]]);
  let deepest = 0;
  const pending: HtmlElement[] = [root];
  for (let element = pending.pop(); element; element = pending.pop()) {
    const depth = depths.get(element)! + 1;
    for (const child of element.children) {
      if (child.kind !== 'element') continue;
      depths.set(child, depth);
      deepest = Math.max(deepest, depth);
      pending.push(child);
    }
  }
  return deepest;
}

describe('htmlToMarkdown on one htmlparser2 parse', () => {
  it('decodes entities in text and in attributes', () => {
    expect(convert('<p>a &lt;b&gt; &amp; c&nbsp;d &#x41;&#66;</p><p><a href="/q?x=1&amp;y=2">link</a></p>')).toBe(
      'a <b> & c\u00a0d AB\n\n[link](/q?x=1&y=2)',
    );
  });

  it('drops only the line break right after <pre>, as the HTML parser does', () => {
    expect(convert('<pre>\nfirst\n</pre>')).toBe('```\nfirst\n```');
    expect(convert('<pre>\n\nafter a blank line</pre>')).toBe('```\n\nafter a blank line\n```');
  });

  it('fences a <pre> inside a list item with every line indented', () => {
    expect(convert('<ol start="3"><li>run<pre>a\nb</pre></li><li>done</li></ol>')).toBe(
      '3.  run\n    \n    ```\n    a\n    b\n    ```\n    \n4.  done',
    );
  });

  it('nests lists, and numbers a long ordered list in one pass', async () => {
    expect(convert('<ul><li>one<ul><li>inner</li></ul></li><li>two</li></ul>')).toBe('-   one\n    -   inner\n-   two');
    const items = Array.from({ length: 20_000 }, (_, i) => `<li>item ${i}</li>`).join('');
    const lines = (await inTime(() => convert(`<ol>${items}</ol>`))).split('\n');
    expect(lines).toHaveLength(20_000);
    expect(lines[19_999]).toBe('20000.  item 19999');
  });

  it('moves edge spaces out of emphasis and lengthens code delimiters around backticks', () => {
    expect(convert('<p>a<em> b </em>c <strong>d</strong></p>')).toBe('a _b_ c **d**');
    expect(convert('<p>run <code>a `b` c</code> and <code>`x</code></p>')).toBe('run ``a `b` c`` and `` `x ``');
  });

  it('escapes markdown in text but not inside code, and keeps underscores inside words', () => {
    expect(convert('<p>* not a list [x] snake_case _lead</p><p><code>*raw*</code></p>')).toBe(
      '\\* not a list \\[x\\] snake_case \\_lead\n\n`*raw*`',
    );
  });

  it('reads a stray </br> as a line break and ignores other stray end tags', () => {
    expect(convert('<p>one</br>two</span></p>')).toBe('one  \ntwo');
  });

  it('reads <noscript> as raw text: an end tag inside cannot close the page around it', () => {
    expect(convert('<p>before</p><noscript></main><p>Enable JavaScript</p></noscript><p>after</p>')).toBe(
      'before\n\nafter',
    );
  });

  it('keeps the first of duplicate attributes, as the HTML parser does', () => {
    expect(convert('<p><a href="/first" href="/second">x</a></p>')).toBe('[x](/first)');
  });

  it('builds no element deeper than the limit, and keeps the text', () => {
    const { root } = parseHtmlPage(nestedDivs(5_000).toString(), 50);
    // 50 open elements, and inside the deepest one the childless line break standing for the dropped <div>s.
    expect(maxDepth(root)).toBeLessThanOrEqual(51);
    let texts = 0;
    walkElements(root, (element) => {
      texts += element.children.filter(
        (child) => child.kind === 'text' && child.text.includes('deep text survives'),
      ).length;
    });
    expect(texts).toBe(1);
  });

  it('removes chrome inside the content but keeps a chrome-classed block that holds a heading', () => {
    expect(
      convert(
        '<div class="toc">Contents</div><div class="sidebar"><h2>Real section</h2><p>Body.</p></div><p aria-hidden="true">icon</p>',
      ),
    ).toBe('## Real section\n\nBody.');
  });
});
