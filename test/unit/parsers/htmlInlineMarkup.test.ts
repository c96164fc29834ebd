import { splitBlocks } from '../../../chunker/blocks';
import { htmlToMarkdown } from '../../../parsers/htmlToMarkdown';
import { words } from '../../../testkit/fixtures/wordCoverage';

/** A line that opens like a fence but holds a later backtick: a code span the chunker would read as a fence. */
const CODE_SPAN_AS_FENCE = /^ {0,3}`{3,}[^`\n]*`/m;

describe('htmlToMarkdown: inline code', () => {
  it("keeps the text of markup inside <code> literal, so its words stay whole (DocBook's -I<replaceable>)", () => {
    const markdown = htmlToMarkdown(
      '<p>supply the <code class="literal">-I<em class="replaceable"><code>directory</code></em></code> option</p>',
    );
    expect(markdown).toBe('supply the `-Idirectory` option');
    expect(words(markdown)).toContain('Idirectory');
  });

  it('shows no markdown of links or emphasis inside a code span', () => {
    expect(htmlToMarkdown('<p><code>a <strong>b</strong> <a href="u">d</a></code></p>')).toBe('`a b d`');
  });

  it.each([
    ['nested <code> three deep', '<p><code><code><code>deep</code></code></code> after</p>'],
    ['code holding a single and a double backtick run', '<p><code>`a` ``b``</code> after</p>'],
    ['the same after a line break', '<p>before<br><code>``b`` `a`</code> after</p>'],
    ['in a list item and a heading', '<ul><li><code>`x` ``y``</code></li></ul><h2><code>`x` ``y``</code></h2>'],
  ])('starts no line with a fence-like backtick run: %s', (_name, html) => {
    const markdown = htmlToMarkdown(html);
    expect(markdown).not.toMatch(CODE_SPAN_AS_FENCE);
    expect(splitBlocks(`${markdown}\n`).filter((block) => block.kind === 'code')).toEqual([]);
  });

  it('joins <code> elements side by side into one span, since "`a``b`" would be one span holding two backticks', () => {
    expect(
      htmlToMarkdown(
        '<p>within <code>PGDATA</code><code>/base</code><code>/1</code>, named <code>x</code> <code>y</code></p>',
      ),
    ).toBe('within `PGDATA/base/1`, named `x` `y`');
  });

  it('keeps code that needs a ``` delimiter as an inline <code> element, its backticks escaped', () => {
    expect(htmlToMarkdown('<p><code>`a` ``b`` &lt;x&gt;</code></p>')).toBe(
      '<code>\\`a\\` \\`\\`b\\`\\` &lt;x&gt;</code>',
    );
  });
});

describe('htmlToMarkdown: emphasis inside a word', () => {
  it('uses * where the emphasis touches a letter, since _ cannot open or close inside a word', () => {
    expect(htmlToMarkdown('<p>the <em>N</em>th entry, Byte<em class="replaceable">n</em></p>')).toBe(
      'the *N*th entry, Byte*n*',
    );
  });

  it('sees the letters beside an inline wrapper (DocBook\'s <span class="emphasis"><em>)', () => {
    expect(htmlToMarkdown('<p>for example <span class="emphasis"><em>3.14</em></span>159265359, same</p>')).toBe(
      'for example *3.14*159265359, same',
    );
  });

  it('keeps _ where a space separates the emphasis from the words beside it', () => {
    expect(htmlToMarkdown('<p>a <em> spaced </em>b and <i>plain</i> text</p>')).toBe('a _spaced_ b and _plain_ text');
  });
});
