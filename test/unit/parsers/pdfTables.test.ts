import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripPageMarkers } from '../../../chunker/chunkPages';
import { chunkMarkdown } from '../../../chunker/chunkMarkdown';
import { childBody, childrenOf } from '../../../testkit/fixtures/chunkChecks';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { parseToMarkdown } from '../../../parsers/parseToMarkdown';
import { fixtureBaseline, fixturePdf, fixtureRules, type FixtureLine } from '../../../testkit/fixtures/pdfFixture';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-pdf-tables-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function parsePdf(bytes: Buffer): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  return parseToMarkdown(file, 'pdf', DEFAULT_PARSE_LIMITS);
}

const COLUMNS = [66, 190, 310, 450];
const row = (first: string, second: string, third: string): FixtureLine => ({
  text: first,
  cells: [
    { x: 196, text: second },
    { x: 316, text: third },
  ],
});
/**
 * A grid whose first and last columns hold sentences: alignment alone takes such a table for
 * prose side by side, so it is read from its rules (and the page's operator list is read).
 */
const WIDE = [40, 250, 330, 575];
const wideRow = (first: string, second: string, third: string): FixtureLine => ({
  text: first,
  x: 46,
  cells: [
    { x: 256, text: second },
    { x: 336, text: third },
  ],
});
/** Row boundaries of fixture lines `first`..`last`: 3 points under each baseline, as a cell's padding. */
const rowBounds = (first: number, last: number): number[] =>
  Array.from({ length: last - first + 2 }, (_, i) => fixtureBaseline(first - 1 + i) - 3);

describe('tables in PDFs', () => {
  it('writes a ruled table as a markdown table in its place, with a merged cell written once', async () => {
    const ys = rowBounds(1, 6);
    const markdown = await parsePdf(
      fixturePdf(
        [
          [
            { text: 'The formats sluice reads are these.' },
            wideRow('Format of the document uploaded', 'Ext', 'Parser that turns it into markdown'),
            wideRow('Markdown documents written by hand', '.md', 'read as it is, front matter aside'),
            wideRow('Word processor documents of Office', '.docx', 'mammoth, with its styles mapped'),
            wideRow('Spreadsheets of every office suite', '.xlsx', 'one pipe table for each sheet'),
            wideRow('Presentations with slides and notes', '.pptx', 'each slide as a section of text'),
            { text: 'Portable Document Format, as printed by browsers and typesetters', x: 46 },
            { text: '' },
            { text: 'A closing paragraph follows the table.' },
          ],
        ],
        { drawings: [fixtureRules(WIDE, ys, { skip: { vertical: [`250@${ys[5]}`, `330@${ys[5]}`] } })] },
      ),
    );
    expect(stripPageMarkers(markdown).text).toBe(
      [
        'The formats sluice reads are these.',
        [
          '| Format of the document uploaded | Ext | Parser that turns it into markdown |',
          '| --- | --- | --- |',
          '| Markdown documents written by hand | .md | read as it is, front matter aside |',
          '| Word processor documents of Office | .docx | mammoth, with its styles mapped |',
          '| Spreadsheets of every office suite | .xlsx | one pipe table for each sheet |',
          '| Presentations with slides and notes | .pptx | each slide as a section of text |',
          '| Portable Document Format, as printed by browsers and typesetters |  |  |',
        ].join('\n'),
        'A closing paragraph follows the table.',
      ].join('\n\n'),
    );
  });

  it('reads borders drawn as thin filled rectangles, as browsers draw them', async () => {
    const ys = rowBounds(0, 4);
    const markdown = await parsePdf(
      fixturePdf(
        [
          [
            wideRow('Text of any script and language', 'str', 'a sequence of Unicode code points'),
            wideRow('Raw data as read from the disk', 'bytes', 'a sequence of values from 0 to 255'),
            wideRow('Group of the types in the row', 'Name', 'Meaning of the type in plain words'),
            wideRow('Numbers of every kind there are', 'int', 'whole numbers | signed, of any size'),
            wideRow('Numbers with a fractional part', 'float', 'binary fractions of a fixed precision'),
          ],
        ],
        { drawings: [fixtureRules(WIDE, ys, { asFills: true })] },
      ),
    );
    expect(stripPageMarkers(markdown).text).toBe(
      [
        '| Text of any script and language | str | a sequence of Unicode code points |',
        '| --- | --- | --- |',
        '| Raw data as read from the disk | bytes | a sequence of values from 0 to 255 |',
        '| Group of the types in the row | Name | Meaning of the type in plain words |',
        '| Numbers of every kind there are | int | whole numbers \\| signed, of any size |',
        '| Numbers with a fractional part | float | binary fractions of a fixed precision |',
      ].join('\n'),
    );
  });

  it('finds a table without rules from its aligned columns, and leaves paragraphs and code alone', async () => {
    const markdown = await parsePdf(
      fixturePdf([
        [
          { text: 'Options of the command follow in a table.' },
          row('Option', 'Default', 'Effect'),
          row('--depth', '3', 'how deep to follow links'),
          row('--quiet', 'off', 'print nothing but errors'),
          row('--jobs', '2', 'parallel fetches'),
          { text: '' },
          { text: 'An ordinary paragraph of prose that runs on for a' },
          { text: 'second line and is not a table at all.' },
          { text: 'plot sin(x)    with lines', mono: true },
          { text: 'plot cos(x)    with points', mono: true },
          { text: 'plot tan(x)    with dots', mono: true },
        ],
      ]),
    );
    const text = stripPageMarkers(markdown).text;
    expect(text).toContain(
      '| Option | Default | Effect |\n| --- | --- | --- |\n| --depth | 3 | how deep to follow links |\n| --quiet | off | print nothing but errors |\n| --jobs | 2 | parallel fetches |',
    );
    expect(text).toContain('An ordinary paragraph of prose that runs on for a second line and is not a table at all.');
    // Code keeps its columns (parsers/pdf/fixedPitch.ts): the gap stays a run of spaces, not a cell.
    expect(text).toMatch(/```\nplot sin\(x\) +with lines\n/);
    expect(text.match(/^\| --- /gm)).toHaveLength(1);
  });

  it('joins a table continued on the next page, writing its repeated header row once', async () => {
    const firstYs = rowBounds(1, 3);
    const nextYs = rowBounds(0, 2);
    const markdown = await parsePdf(
      fixturePdf(
        [
          [
            { text: 'The limits are listed below.' },
            row('Limit', 'Default', 'Unit'),
            row('upload size', '100', 'MB'),
            row('pages', '5000', 'pages'),
          ],
          [
            row('Limit', 'Default', 'Unit'),
            row('chunks', '20000', 'chunks'),
            row('parse time', '300', 'seconds'),
            { text: '' },
            { text: 'Each limit can be changed in the configuration.' },
          ],
        ],
        { drawings: [fixtureRules(COLUMNS, firstYs), fixtureRules(COLUMNS, nextYs)] },
      ),
    );
    expect(markdown).toBe(
      [
        '<!-- sluice:page 1 -->',
        'The limits are listed below.',
        '| Limit | Default | Unit |\n| --- | --- | --- |\n| upload size | 100 | MB |\n| pages | 5000 | pages |\n| chunks | 20000 | chunks |\n| parse time | 300 | seconds |',
        '<!-- sluice:page 2 -->',
        'Each limit can be changed in the configuration.',
      ].join('\n\n'),
    );
  });

  it('gives a PDF table the chunker’s table handling: whole where it fits, else cut between rows with the header repeated', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => row(`setting ${i}`, String(i * 7), `unit ${i}`));
    const ys = rowBounds(0, rows.length);
    const markdown = await parsePdf(
      fixturePdf([[row('Setting', 'Value', 'Unit'), ...rows]], { drawings: [fixtureRules(COLUMNS, ys)] }),
    );
    const table = stripPageMarkers(markdown).text;
    expect(table.split('\n')).toHaveLength(32);

    // The pipeline chunks the markdown without its page markers (chunker/chunkWithPlan.ts).
    const whole = childrenOf(chunkMarkdown('doc', table, { maxTokens: 1000, overlapTokens: 0 }));
    expect(whole.map(childBody)).toEqual([table]);

    const parts = childrenOf(chunkMarkdown('doc', table, { maxTokens: 120, overlapTokens: 0 })).map(childBody);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts)
      expect(part.startsWith('| Setting | Value | Unit |\n| --- | --- | --- |\n| setting')).toBe(true);
    expect(parts.join('\n')).toContain('| setting 29 | 203 | unit 29 |');
  });
});
