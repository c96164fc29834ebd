import { cellF1, scoreDocument, type Tally } from '../../../bench/pdfStructureScore';
import { truthOf } from '../../../bench/pdfStructureTruth';

const HTML = `<html><head><style>p { color: red }</style></head><body>
<div class="nav"><a href="up.html">Up</a> <ul><li>Home</li></ul></div>
<h1>Install guide</h1>
<p>Read this first before you install the package on your system.</p>
<h2>Options</h2>
<table><tr><th>Option</th><th>Meaning</th></tr><tr><td>-v</td><td>verbose output</td></tr></table>
<ul><li>First step to take <ul><li>nested detail</li></ul></li><li>Second step</li></ul>
<pre>make install
  make check</pre>
<p style="display:none">hidden words</p>
</body></html>`;

const PERFECT = `# Install guide

Read this first before you install the package on your system.

## Options

| Option | Meaning |
|---|---|
| -v | verbose output |

- First step to take
  - nested detail
- Second step

\`\`\`
make install
  make check
\`\`\`
`;

const truth = truthOf(HTML, ['.nav']);
const share = (tally: Tally) => tally.hits / tally.total;

describe('PDF structure scoring', () => {
  it('takes the truth from the HTML, less chrome and hidden elements', () => {
    expect(truth.tables).toEqual([
      [
        ['option', 'meaning'],
        ['v', 'verbose output'],
      ],
    ]);
    expect(truth.listItems).toEqual(['first step to take', 'nested detail', 'second step']);
    expect(truth.codeLines).toEqual(['make install', 'make check']);
    expect(truth.headings).toEqual([
      { level: 1, text: 'install guide' },
      { level: 2, text: 'options' },
    ]);
    expect(truth.words).not.toContain('hidden');
    expect(truth.words).not.toContain('home');
  });

  it('scores a perfect markdown 1 on every measure', () => {
    const score = scoreDocument(truth, PERFECT);
    expect(cellF1(score.cells)).toBe(1);
    for (const tally of [score.rows, score.lists, score.code, score.headings, score.words])
      expect(share(tally)).toBe(1);
  });

  it('gives a table flattened to lines no cells, and plain lines no lists, code or headings', () => {
    const flattened = PERFECT.replace(/^\s*[#|`-]+ ?/gm, '').replace(/ \| /g, ' ');
    const score = scoreDocument(truth, flattened);
    expect(score.cells.hits).toBe(0);
    expect(score.rows.hits).toBe(0);
    expect(score.lists.hits).toBe(0);
    expect(score.code.hits).toBe(0);
    expect(score.headings.hits).toBe(0);
    expect(share(score.words)).toBe(1);
  });

  it('aligns heading levels at the shallowest one on each side', () => {
    const shifted = PERFECT.replace('# Install', '## Install').replace('## Options', '### Options');
    expect(share(scoreDocument(truth, shifted).headings)).toBe(1);
    const flat = PERFECT.replace('## Options', '# Options');
    expect(scoreDocument(truth, flat).headings.hits).toBe(1);
  });

  it('counts a table cell once per occurrence and a row only when whole', () => {
    const split = PERFECT.replace('| -v | verbose output |', '| -v | |\n| verbose output | |');
    const score = scoreDocument(truth, split);
    expect(score.cells.hits).toBe(4);
    expect(score.rows).toEqual({ hits: 1, total: 2 });
    const doubled = PERFECT.replace('| -v | verbose output |', '| -v | verbose output |\n| -v | verbose output |');
    expect(scoreDocument(truth, doubled).cells).toEqual({ hits: 4, truth: 4, output: 6 });
  });

  it('sees blocks out of order', () => {
    const long = (words: string) => `<p>${words}</p>`;
    const orderTruth = truthOf(
      `<body>${long('alpha one two three four five')}${long('beta one two three four five')}${long('gamma one two three four five')}</body>`,
      [],
    );
    const swapped = 'gamma one two three four five\n\nalpha one two three four five\n\nbeta one two three four five';
    expect(scoreDocument(orderTruth, swapped).order).toEqual({ hits: 1, total: 2 });
  });
});
