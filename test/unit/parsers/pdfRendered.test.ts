import path from 'node:path';
import { splitPages } from '../../../chunker/pageMarkers';
import { parseToMarkdown } from '../../../parsers/parseToMarkdown';

/** PDFs printed by WeasyPrint from the HTML beside them (scripts/make-pdf-fixtures.sh). */
const fixture = (name: string): string => path.join(__dirname, '../../../testkit/fixtures/pdf', name);

describe('PDFs rendered from HTML', () => {
  it('reads ordered and nested lists, and code in a monospaced font without the fixed-pitch flag', async () => {
    const markdown = await parseToMarkdown(fixture('weasyprint-lists-and-code.pdf'), 'pdf');
    expect(markdown).toBe(
      [
        '<!-- sluice:page 1 -->',
        'Install the server in three steps:',
        '1. Configure the source tree for your system, choosing the options you would like to build with.',
        '2. Build it:',
        '   - the server',
        '   - the client libraries',
        '3. Install the files.',
        'A loop in Python:',
        '```\nfor user in users:\n    if user.active:\n        notify(user)\n\nprint("done")\n```',
        'Closing paragraph with inline code.',
      ].join('\n\n'),
    );
  });

  it('keeps a paragraph across a page break whole, on the page it starts, without running header and page numbers', async () => {
    const pages = splitPages(await parseToMarkdown(fixture('weasyprint-running-pages.pdf'), 'pdf'));
    expect(pages.map(({ page }) => page)).toEqual([1, 2]);
    const blocks = pages[0]!.text.split('\n\n');
    expect(blocks).toHaveLength(4);
    expect(blocks[3]).toMatch(
      /^Paragraph four .* in the footer, none of which belong to the sentence it interrupts\.$/,
    );
    expect(pages[1]!.text).toBe('Closing paragraph on the last page.');
    for (const { text } of pages) expect(text).not.toMatch(/Lists Manual|^\d$/m);
  });
});
