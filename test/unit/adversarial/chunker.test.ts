import path from 'node:path';
import {
  backtickLine,
  deepBlockquote,
  digitRun,
  dotRun,
  emojiRun,
  giantCodeLine,
  giantTableCell,
  giantWord,
  hanRun,
  headingLines,
  headingMarks,
  linesWithoutBlank,
  nestedList,
  punctuationRun,
  spacedHeading,
  spaceRun,
  tableRows,
  wideTableRow,
} from '../../../bench/adversarialChunkerInputs';
import type { ChunkSummary, Wrapper } from '../../../testkit/fixtures/chunkSummary';
import { callOffThread, stopOffThreadCalls } from '../../../testkit/harness/offThread';

/**
 * Generated hostile markdown through chunkMarkdown with the worker's default options. Each input is
 * big enough that a quadratic step would run for minutes; it runs on a worker thread so that Jest's
 * timeout fails it then. Every chunking must keep children within the budget, cover the text,
 * never shred it into scraps nor split a surrogate pair, and find the right sections.
 * (Stack overflows are caught on the main thread by test/unit/chunker/hostileText.test.ts: a
 * worker's stack is larger.)
 */
const SUMMARY = path.join(__dirname, '../../../testkit/fixtures/chunkSummary.ts');
const MILLION = 1_000_000;
const TABLE: Wrapper = { start: '| key | value |\n| --- | --- |\n', end: '' };
const CODE: Wrapper = { start: '```js\n', end: '\n```' };

afterEach(stopOffThreadCalls);

const summarize = (markdown: string, wrapper?: Wrapper): Promise<ChunkSummary> =>
  callOffThread<ChunkSummary>(SUMMARY, 'summarizeChunks', markdown, wrapper);

type Expectation = (summary: ChunkSummary) => void;

const oneSection =
  (lastChildEnd: string): Expectation =>
  (summary) => {
    expect(summary.sectionPaths).toEqual([[]]);
    expect(summary.lastChild.endsWith(lastChildEnd)).toBe(true);
  };

const endsWith =
  (lastChildEnd: string): Expectation =>
  (summary) =>
    expect(summary.lastChild.endsWith(lastChildEnd)).toBe(true);

interface Case {
  name: string;
  make: () => string;
  check: Expectation;
  wrapper?: Wrapper;
}

const cases: Case[] = [
  { name: 'a million-character word', make: () => giantWord(MILLION), check: oneSection('xxz') },
  { name: 'a million sentence stops', make: () => dotRun(MILLION), check: oneSection('...') },
  {
    name: 'a million mixed punctuation marks',
    make: () => punctuationRun(MILLION),
    check: oneSection(punctuationRun(MILLION).slice(-3)),
  },
  { name: 'a million digits', make: () => digitRun(MILLION), check: oneSection('777') },
  { name: 'a million Han characters', make: () => hanRun(MILLION), check: oneSection('数数数') },
  { name: 'half a million emoji', make: () => emojiRun(MILLION), check: oneSection('\u{1F600}') },
  {
    name: 'two words around a million spaces',
    make: () => spaceRun(MILLION),
    // Whitespace costs no tokens but counts against a child's character cap (chunker/charCap.ts):
    // one word each side of the cut, the million spaces between them dropped.
    check: (summary) => {
      expect(summary.children).toBe(2);
      expect(summary.lastChild).toBe('closing');
    },
  },
  {
    name: 'a heading title running on after a million spaces',
    make: () => spacedHeading(MILLION),
    check: (summary) => expect(summary.sectionPaths).toEqual([['a #x']]),
  },
  {
    name: 'a heading closed after a million spaces',
    make: () => spacedHeading(MILLION, '### '),
    check: (summary) => expect(summary.sectionPaths).toEqual([['a']]),
  },
  {
    name: '50,000 heading lines of every level',
    make: () => headingLines(50_000),
    check: (summary) => {
      // Each one-line body folds into the next, deeper heading: one parent per run of levels 1–6.
      expect(summary.sectionPaths).toHaveLength(Math.ceil(50_000 / 6));
      expect(summary.sectionPaths.at(-1)).toEqual(['h49998', 'h49999']);
      expect(summary.lastChild.endsWith('body 49999')).toBe(true);
    },
  },
  { name: 'a million heading marks in one line', make: () => headingMarks(MILLION), check: oneSection('### end') },
  {
    name: 'a million backticks before a line separator',
    make: () => backtickLine(MILLION),
    check: oneSection('`\u2028after'),
  },
  { name: 'a blockquote 10,000 levels deep', make: () => deepBlockquote(10_000), check: oneSection('> deeper') },
  {
    name: '4,000 list items nested up to 1,000 levels',
    make: () => nestedList(4_000),
    check: oneSection('- item 3999'),
  },
  {
    name: '150,000 lines without a blank line',
    make: () => linesWithoutBlank(150_000),
    check: oneSection('line 149999 of the paragraph'),
  },
  {
    name: 'a table row of 100,000 cells',
    make: () => wideTableRow(100_000),
    check: endsWith('c99999 |'),
    wrapper: TABLE,
  },
  {
    name: 'a table cell of 200,000 sentences',
    make: () => giantTableCell(200_000),
    check: endsWith('Fact. |'),
    wrapper: TABLE,
  },
  {
    name: 'a table of 100,000 rows',
    make: () => tableRows(100_000),
    check: endsWith('| 99999 | name 99999 |'),
    wrapper: TABLE,
  },
  {
    name: 'a code line of 200,000 statements',
    make: () => giantCodeLine(200_000),
    check: endsWith('x = 1;\n```'),
    wrapper: CODE,
  },
];

describe('chunkMarkdown on generated hostile markdown', () => {
  it.each(cases)('$name', async ({ make, check, wrapper }) => {
    const summary = await summarize(make(), wrapper);
    expect(summary.children).toBeGreaterThan(0);
    expect(summary.overBudget).toEqual([]);
    expect(summary.uncovered).toEqual([]);
    expect(summary.fragmented).toEqual([]);
    expect(summary.brokenPairs).toEqual([]);
    expect(summary.unwrapped).toEqual([]);
    check(summary);
  });
});
