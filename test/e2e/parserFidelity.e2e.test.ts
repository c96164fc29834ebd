import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { load } from 'cheerio';
import { splitBlocks } from '../../chunker/blocks';
import { splitSections } from '../../chunker/splitSections';
import { htmlToMarkdown } from '../../parsers/htmlToMarkdown';
import { debianDocPath } from '../../testkit/fixtures/debianDocs';
import type { PdfTextLayer } from '../../testkit/fixtures/pdfTextLayer';
import { htmlSourceWords, pdfSourceWords, wordCoverage, words } from '../../testkit/fixtures/wordCoverage';

/**
 * Parsing keeps every word of real documents nobody here wrote: pdf.js's own text layer against
 * sluice's markdown for two LaTeX/Texinfo manuals; the words of every page and every <pre> of the
 * PostgreSQL HTML manual.
 */
const repoRoot = path.resolve(__dirname, '../..');
const GNUPLOT = ['gnuplot-doc', 'usr/share/doc/gnuplot/gnuplot.pdf'] as const;
const R_INTRO = ['r-doc-pdf', 'usr/share/doc/r-doc-pdf/manual/R-intro.pdf'] as const;
const REFMAN = ['r-doc-pdf', 'usr/share/doc/r-doc-pdf/manual/refman.pdf'] as const;
const PG_HTML = 'usr/share/doc/postgresql-doc-15/html';
const MIN_COVERAGE = 0.995;

const layers = new Map<string, Promise<PdfTextLayer>>();

/** pdf.js cannot load inside Jest: a child process reads the text layer and converts the file. */
function textLayer(source: readonly [string, string], markdownOnly = false): Promise<PdfTextLayer> {
  const key = source.join('/');
  if (!layers.has(key)) layers.set(key, readTextLayer(source, markdownOnly));
  return layers.get(key)!;
}

async function readTextLayer([pkg, file]: readonly [string, string], markdownOnly: boolean): Promise<PdfTextLayer> {
  const run = promisify(execFile);
  const script = path.join(repoRoot, 'testkit/fixtures/pdfTextLayer.ts');
  const args = ['--require', 'tsx/cjs', script, debianDocPath(pkg, file), ...(markdownOnly ? ['--markdown-only'] : [])];
  const { stdout } = await run(process.execPath, args, { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(stdout) as PdfTextLayer;
}

/** Words joined by one space: a line is found in the markdown whatever the whitespace or markup. */
const wordText = (text: string): string => ` ${words(text).join(' ')} `;

/**
 * The last body line of every full page (30 lines or more), its first and last word left out: a
 * hyphen at the end or a paragraph join at the start changes them in the markdown.
 */
function lostPageEnds(layer: PdfTextLayer): string[] {
  const markdown = wordText(layer.markdown);
  return layer.pages
    .filter((lines, i) => lines.length >= 30 && !layer.referencePages.includes(i + 1))
    .map((lines) => lines.filter((line) => line.length > 40).slice(-1)[0] ?? '')
    .filter((line) => line !== '' && !markdown.includes(` ${words(line).slice(1, -1).join(' ')} `));
}

/** Pages expected to be dropped: the tables of contents and the indexes, nothing else. */
const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const REFERENCE_PAGES = new Map<readonly [string, string], number[]>([
  [GNUPLOT, [...range(2, 20), ...range(304, 311)]],
  [R_INTRO, [...range(3, 6), ...range(108, 112)]],
]);

describe.each([
  ['gnuplot.pdf', GNUPLOT],
  ['R-intro.pdf', R_INTRO],
])('%s', (_name, source) => {
  let layer: PdfTextLayer;
  beforeAll(async () => {
    layer = await textLayer(source);
  }, 300_000);

  it('keeps the last line of every full page', () => {
    expect(lostPageEnds(layer)).toEqual([]);
  });

  it('leaves out its table-of-contents and index pages, and only those', () => {
    expect(layer.referencePages).toEqual(REFERENCE_PAGES.get(source));
  });

  it('takes its headings from its outline, no page number in a title', () => {
    const headings = splitSections(layer.markdown).filter((section) => section.heading);
    expect(layer.outlineEntries).toBeGreaterThan(100);
    expect(headings.length).toBeGreaterThan(layer.outlineEntries * 0.9);
    expect(
      headings.filter(
        (section) =>
          /\s\d+$/.test(section.path[section.path.length - 1] ?? '') && !/version/i.test(section.path.join()),
      ),
    ).toEqual([]);
  });

  it(`keeps at least ${MIN_COVERAGE * 100} % of the words of pdf.js's text content (contents and index pages aside)`, () => {
    const { coverage, missing } = wordCoverage(
      pdfSourceWords(layer.pages, new Set(layer.referencePages)),
      layer.markdown,
    );
    if (coverage < MIN_COVERAGE) console.log([...missing].sort((p, q) => q[1] - p[1]).slice(0, 30));
    expect(coverage).toBeGreaterThanOrEqual(MIN_COVERAGE);
  });
});

it('R-intro.pdf: the line that ends page 8 follows "an environment within which many"', async () => {
  const { markdown } = await textLayer(R_INTRO);
  expect(markdown).toContain(
    'an environment within which many classical and modern statistical techniques have been implemented. A few of these are built into the base R environment',
  );
}, 300_000);

it('R-intro.pdf: the table of contents and index lines are gone, the sections they point to are there', async () => {
  const { markdown } = await textLayer(R_INTRO);
  const text = wordText(markdown);
  for (const line of ['5 Arrays and matrices 20', 'Generalized transpose of an array 24', 'aperm 24', 'Preface 1'])
    expect(text).not.toContain(` ${line} `);
  const paths = splitSections(markdown).map((section) => section.path.join(' > '));
  expect(paths).toContain('5 Arrays and matrices > 5.6 Generalized transpose of an array');
  expect(markdown).toContain('The function aperm(a, perm) may be used to permute an array, a.');
}, 300_000);

it('refman.pdf: one section path per help topic, under its package, from the outline', async () => {
  const { markdown, outlineEntries, referencePages } = await textLayer(REFMAN, true);
  const paths = new Set(splitSections(markdown).map((section) => section.path.join(' > ')));
  expect(outlineEntries).toBeGreaterThan(1_400);
  expect(paths.size).toBeGreaterThanOrEqual(1_000);
  expect(paths).toContain('The base package > MathFun'); // abs, sqrt and co. share the help topic MathFun
  expect(paths).toContain('The stats package > sd');
  // The contents (pages ii–xxxi) and the index at the end; no page in between.
  expect(referencePages.filter((page) => page > 31 && page < 2_300)).toEqual([]);
  expect(referencePages.length).toBeGreaterThan(100);
}, 600_000);

describe('PostgreSQL 15 HTML manual', () => {
  const dir = debianDocPath('postgresql-doc-15', PG_HTML);
  const spaced = (text: string): string => text.replace(/\s+/g, ' ').trim();

  /**
   * Bodies of the markdown's fenced blocks (indented ones too, inside list items). A backtick
   * fence's info string holds no backtick (CommonMark 4.5): "``` ``f(x)`` ```" is inline code.
   */
  function fencedBlocks(markdown: string): string[] {
    const blocks: string[] = [];
    const fence = /^([ \t]*)(`{3,}|~{3,})[^`\n]*\n([\s\S]*?)\n\1\2$/gm;
    for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) blocks.push(spaced(match[3] ?? ''));
    return blocks;
  }

  it('turns every <pre> of all pages into a fenced block holding its whole text', () => {
    let pres = 0;
    let inTables = 0;
    const lost: string[] = [];
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.html'))) {
      const html = readFileSync(path.join(dir, name), 'utf8');
      const $ = load(html);
      const pre = $('pre').toArray();
      if (pre.length === 0) continue;
      const markdown = htmlToMarkdown(html);
      const blocks = fencedBlocks(markdown);
      for (const element of pre) {
        pres++;
        const text = spaced($(element).text());
        // A pipe-table cell holds one line: there the block is a code span, its text intact.
        const inCell = $(element).closest('td, th').length > 0;
        if (inCell) inTables++;
        const kept = inCell
          ? spaced(markdown).replaceAll('\\|', '|').includes(text)
          : blocks.some((block) => block.includes(text));
        if (!kept) lost.push(`${name}: ${text.slice(0, 80)}`);
      }
    }
    expect(pres).toBeGreaterThan(3_800);
    expect(inTables).toBeLessThan(pres / 50);
    expect(lost).toEqual([]);
  });

  const pages = (): { name: string; html: string; markdown: string }[] =>
    readdirSync(dir)
      .filter((file) => file.endsWith('.html'))
      .map((name) => {
        const html = readFileSync(path.join(dir, name), 'utf8');
        return { name, html, markdown: htmlToMarkdown(html) };
      });

  it(`keeps at least ${MIN_COVERAGE * 100} % of the words of all pages' text (navigation header, footer and local contents aside)`, () => {
    let sourceWords = 0;
    let lost = 0;
    const missingWords = new Map<string, number>();
    const all = pages();
    for (const { html, markdown } of all) {
      const source = htmlSourceWords(html);
      const { missing } = wordCoverage(source, markdown);
      sourceWords += source.length;
      for (const [word, count] of missing) {
        lost += count;
        missingWords.set(word, (missingWords.get(word) ?? 0) + count);
      }
    }
    const coverage = 1 - lost / sourceWords;
    if (coverage < MIN_COVERAGE) console.log(coverage, [...missingWords].sort((p, q) => q[1] - p[1]).slice(0, 30));
    expect(all.length).toBeGreaterThan(1_100);
    expect(sourceWords).toBeGreaterThan(1_000_000);
    expect(coverage).toBeGreaterThanOrEqual(MIN_COVERAGE);
  });

  it('writes no line the chunker would take for a fence but a real fence (no code span at a line start)', () => {
    const misread: string[] = [];
    for (const { name, markdown } of pages()) {
      for (const block of splitBlocks(`${markdown}\n`)) {
        const opener = block.text.slice(0, block.text.indexOf('\n'));
        if (block.kind === 'code' && !/^ {0,3}(`{3,}|~{3,})[^`]*$/.test(opener))
          misread.push(`${name}: ${opener.slice(0, 80)}`);
      }
    }
    expect(misread).toEqual([]);
  });

  it('keeps the prompt and the command of a DocBook <pre> (pg_dump)', () => {
    const markdown = htmlToMarkdown(readFileSync(path.join(dir, 'app-pgdump.html'), 'utf8'));
    expect(markdown).toContain('```\n$ pg_dump -Fc mydb > db.dump\n```');
  });
});
