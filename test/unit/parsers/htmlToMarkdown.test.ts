import { nestedDivs, strayEndTags, unclosedTags } from '../../../bench/adversarialInputs';
import { htmlToMarkdown } from '../../../parsers/htmlToMarkdown';
import { inTime } from '../adversarial/inTime';

const page = (body: string, title = 'Page title'): string =>
  `<!DOCTYPE html><html><head><title>${title}</title><style>.x{color:red}</style></head><body>${body}</body></html>`;

describe('htmlToMarkdown', () => {
  it('drops page boilerplate and keeps the main content', () => {
    const markdown = htmlToMarkdown(
      page(`
        <header><a href="/">Acme Home</a></header>
        <nav><a href="/pricing">Pricing menu</a></nav>
        <main><h1>Release notes</h1><p>The importer now resumes after a crash.</p>
          <form><input name="q"><button>Search site</button></form>
          <script>trackPageView()</script><noscript>Enable JavaScript</noscript></main>
        <aside>Related: billing FAQ</aside>
        <footer>Copyright Acme</footer>`),
    );
    expect(markdown).toContain('# Release notes');
    expect(markdown).toContain('The importer now resumes after a crash.');
    for (const boilerplate of [
      'Acme Home',
      'Pricing menu',
      'Search site',
      'trackPageView',
      'Enable JavaScript',
      'billing FAQ',
      'Copyright',
      'color:red',
    ]) {
      expect(markdown).not.toContain(boilerplate);
    }
  });

  it('prefers a single <article> over the rest of the body', () => {
    const markdown = htmlToMarkdown(
      page('<div class="promo">Subscribe now</div><article><header><h1>Story</h1></header><p>Body text.</p></article>'),
    );
    expect(markdown).toBe('# Story\n\nBody text.');
  });

  it('keeps content wrapped in a page-wide form (ASP.NET WebForms) and the main header', () => {
    expect(htmlToMarkdown(page('<form id="aspnetForm"><h1>Invoice help</h1><p>Pay by card.</p></form>'))).toBe(
      '# Invoice help\n\nPay by card.',
    );
    expect(htmlToMarkdown(page('<header>Site</header><main><header><h1>Title</h1></header><p>Text.</p></main>'))).toBe(
      '# Title\n\nText.',
    );
  });

  it('uses the <title> as top heading when the content has no h1', () => {
    expect(htmlToMarkdown(page('<main><h2>Part</h2><p>Text.</p></main>', 'Guide'))).toMatch(
      /^# Guide\n\n## Part\n\nText\.$/,
    );
  });

  it('converts a simple table to a pipe table', () => {
    const markdown = htmlToMarkdown(
      page(`<main><table>
        <thead><tr><th>Stage</th><th>Failure code</th></tr></thead>
        <tbody><tr><td>CLEANING</td><td>EMPTY_DOCUMENT</td></tr>
        <tr><td>CHUNKING</td><td>a | b <b>bold</b></td></tr></tbody></table></main>`),
    );
    expect(markdown).toContain(
      [
        '| Stage | Failure code |',
        '| --- | --- |',
        '| CLEANING | EMPTY_DOCUMENT |',
        '| CHUNKING | a \\| b **bold** |',
      ].join('\n'),
    );
  });

  it('does not force merged-cell tables into a pipe table but keeps their text', () => {
    const markdown = htmlToMarkdown(
      page('<main><table><tr><td colspan="2">Merged header</td></tr><tr><td>1</td><td>2</td></tr></table></main>'),
    );
    expect(markdown).not.toContain('| --- |');
    expect(markdown).toContain('Merged header');
  });

  it('uses ATX headings and fenced code, keeping # lines inside code', () => {
    const markdown = htmlToMarkdown(
      page('<main><h2>Setup</h2><pre><code class="language-sh"># install\nnpm ci</code></pre></main>'),
    );
    expect(markdown).toContain('## Setup');
    expect(markdown).toContain('```sh\n# install\nnpm ci\n```');
  });

  it('keeps identifiers readable and joins line breaks inside Chinese text', () => {
    const markdown = htmlToMarkdown(
      page('<main><h1>说明</h1><p>查询 pg_stat_activity 视图，\n  然后继续处理。</p></main>'),
    );
    expect(markdown).toContain('pg_stat_activity');
    expect(markdown).toContain('视图，然后继续处理。');
  });

  it('drops generated-docs chrome (DocBook navheader, local toc) and keeps admonition titles out of the headings', () => {
    const markdown = htmlToMarkdown(
      '<html><head><title>28.2. Statistics</title></head><body>' +
        '<div class="navheader"><table><tr><td><a href="prev.html">Prev</a></td></tr></table></div>' +
        '<div class="sect1"><h2 class="title">28.2. Statistics</h2><div class="toc"><dl><dt><a href="#a">28.2.1. Setup</a></dt></dl></div>' +
        '<h3>28.2.1. Setup</h3><p>Enable track_counts.</p><div class="note"><h3 class="title">Note</h3><p>Superusers see all.</p></div>' +
        '</div><div class="navfooter"><a href="next.html">Next</a></div></body></html>',
    );
    expect(markdown).toBe(
      '# 28.2. Statistics\n\n### 28.2.1. Setup\n\nEnable track_counts.\n\n**Note**\n\nSuperusers see all.',
    );
  });

  it('keeps the text of 20,000 nested <div>s (no recursion as deep as the nesting)', async () => {
    // cheerio, css-select and turndown walk the tree recursively: 98 s, then a stack overflow.
    expect(await inTime(() => htmlToMarkdown(nestedDivs(20_000).toString()))).toBe('deep text survives');
  });

  it('keeps every word of deeply nested unclosed tags, in order', async () => {
    const markdown = await inTime(() => htmlToMarkdown(unclosedTags(20_000).toString()));
    const words = markdown.match(/w\d+/g) ?? [];
    expect(words).toHaveLength(20_000);
    expect(words.every((word, i) => word === `w${i}`)).toBe(true);
  });

  it('keeps text inside deep nesting with stray end tags', async () => {
    expect(await inTime(() => htmlToMarkdown(strayEndTags(20_000).toString()))).toContain('inside');
  });

  it('keeps structure, scripts out and block breaks beyond the nesting limit', () => {
    const deep = `${'<div>'.repeat(400)}<h2>Deep title</h2><p>one</p><p>two</p><script>hidden()</script><br>${'</div>'.repeat(400)}`;
    const markdown = htmlToMarkdown(page(`<main><h1>Top</h1><ul><li>item</li></ul>${deep}<p>after</p></main>`));
    expect(markdown).toMatch(/^# Top\n\n- {3}item\n\n[\s\S]*Deep title\s+one\s+two\s+after$/);
    expect(markdown).not.toContain('hidden');
  });

  it('keeps a DocBook <pre> whole: prompt and command, as one fenced block', () => {
    // Turndown's fenced rule read only a lone first <code>: "$" survived, the command did not.
    const markdown = htmlToMarkdown(
      page(
        '<main><h1>pg_dump</h1><pre class="programlisting"><code class="prompt">$</code> <strong class="userinput"><code>pg_dump -Fc mydb &gt; db.dump</code></strong></pre></main>',
      ),
    );
    expect(markdown).toBe('# pg_dump\n\n```\n$ pg_dump -Fc mydb > db.dump\n```');
  });

  it('fences a <pre> without <code> literally, with a fence longer than any backtick run inside', () => {
    const markdown = htmlToMarkdown(
      page(
        '<main><h1>Queries</h1><pre class="programlisting">\n-- Find documents\nSELECT \'{"tags": ["qui"]}\';\n# ````not a fence````\n</pre></main>',
      ),
    );
    expect(markdown).toBe(
      '# Queries\n\n`````\n-- Find documents\nSELECT \'{"tags": ["qui"]}\';\n# ````not a fence````\n`````',
    );
  });
});
