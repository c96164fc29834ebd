import { stripPageReference } from '../../../parsers/pdf/cleanText';
import type { OutlineEntry } from '../../../parsers/pdf/outline';
import { placeOutlineHeadings } from '../../../parsers/pdf/outlineHeadings';
import type { PdfLine } from '../../../parsers/pdf/pdfLine';
import { isReferencePage } from '../../../parsers/pdf/referencePages';
import { inTime } from '../adversarial/inTime';

/** Lines 12 units apart from y = 700 down, as one page of 10-point text lays them out. */
function page(texts: string[]): PdfLine[] {
  return texts.map((text, i) => ({ text, x: 72, y: 700 - i * 12, size: 10, mono: false }));
}

const entry = (title: string, level: number, top: number | null): OutlineEntry => ({ title, level, top });
const shown = (lines: PdfLine[]): string[] =>
  lines.map((line) => (line.heading ? `${'#'.repeat(line.heading)} ${line.text}` : line.text));

describe('placeOutlineHeadings', () => {
  it('turns the line a bookmark points at into its heading, section number kept, rest of the line as text', () => {
    const lines = page([
      'Some text before.',
      '5.6 Generalized transpose of an array',
      'The function aperm(a, perm)',
      'aperm Array Transposition',
      'Description',
    ]);
    const placed = placeOutlineHeadings(lines, [
      entry('Generalized transpose of an array', 2, 700 - 12 + 8),
      entry('aperm', 3, 700 - 36 + 9),
    ]);
    expect(shown(placed)).toEqual([
      'Some text before.',
      '## 5.6 Generalized transpose of an array',
      'The function aperm(a, perm)',
      '### aperm',
      'Array Transposition',
      'Description',
    ]);
  });

  it('matches letters and digits only (ligatures, accents, spacing) and picks the match nearest below the top', () => {
    const lines = page(['Eﬃcient ﬁles', 'Br¨oker', 'Efficient files', 'more']);
    const placed = placeOutlineHeadings(lines, [entry('Efficient Files', 1, 700 - 24 + 5), entry('Bröker', 2, null)]);
    expect(shown(placed)).toEqual(['Eﬃcient ﬁles', '## Br¨oker', '# Efficient files', 'more']);
  });

  it('does not take a longer name for the bookmark ("all" is not "all.equal") and inserts it at its top instead', () => {
    const lines = page(['all.equal Test if Two Objects are Equal', 'Description', 'Usage']);
    expect(shown(placeOutlineHeadings(lines, [entry('all', 2, 700 - 12 + 5)]))).toEqual([
      'all.equal Test if Two Objects are Equal',
      '## all',
      'Description',
      'Usage',
    ]);
  });

  it('joins a title wrapped over two lines into one heading', () => {
    const lines = page(['Part I', 'Gnuplot', 'Copyright notice follows.']);
    expect(shown(placeOutlineHeadings(lines, [entry('I Gnuplot', 1, 710)]))).toEqual([
      '# Part I Gnuplot',
      'Copyright notice follows.',
    ]);
  });

  it('places bookmarks without a matching line at the start (no top) or at the end (top below every line)', () => {
    const lines = page(['One.', 'Two.']);
    expect(shown(placeOutlineHeadings(lines, [entry('Start', 1, null), entry('End', 2, 10)]))).toEqual([
      '# Start',
      'One.',
      'Two.',
      '## End',
    ]);
  });

  it('places thousands of bookmarks on a page of thousands of lines in linear time', async () => {
    // Each bookmark was matched against every line, and placed by a scan from the page's start.
    const lines = page(Array.from({ length: 100_000 }, (_, i) => `line ${i}`));
    const entries = Array.from({ length: 100_000 }, (_, i) => entry(`topic ${i}`, 2, 700 - i * 12 + 5));
    const placed = await inTime(() => placeOutlineHeadings(lines, entries));
    expect(placed).toHaveLength(200_000);
    expect(shown(placed.slice(199_998))).toEqual(['## topic 99999', 'line 99999']);
  });
});

describe('isReferencePage', () => {
  const toc = [
    'Table of Contents',
    'Preface . . . . . . . . 1',
    '1 Introduction . . . . . 2',
    '1.1 The R environment . . . . 2',
    '1.2 Related software . . 2',
    '2 Simple manipulations . . 8',
    '2.1 Vectors . . . . . . 8',
  ];
  const index = [
    'Appendix E Concept index',
    'A',
    'Accessing builtin datasets . . . . 34',
    'Arrays . . . . 20',
    'B',
    'Binary operators . . . 46',
    'Classes . . . . 16, 52',
    'glob2rx, 270, 339, 353,',
    '1095, 1099, 1104–1106,',
    'gray, 824, 846',
  ];

  it.each([
    ['a table of contents with dot leaders', toc],
    ['an index with dot leaders, comma lists and continuation lines', index],
    [
      'a TOC without leaders once a few lines have them',
      [
        '1 The base package 1',
        'abs . . . . 2',
        'all . . . 3',
        'any . . . 4',
        'aperm . . . 5',
        'apply . . . 6',
        'Copyright 21',
      ],
    ],
  ])('recognises %s', (_label, texts) => {
    expect(isReferencePage(texts, false)).toBe(true);
  });

  it.each([
    [
      'prose with page references',
      [
        'See Section 5.3 [Index matrices], page 21, for details.',
        'The recycling rule applies to all arithmetic, see',
        'below. Vectors of length 1 are recycled.',
        'More text follows here in a paragraph',
        'which ends in a number like 12',
      ],
    ],
    [
      'a table of numbers',
      [
        'Alabama 13 236',
        'Alaska 10 263',
        'Arizona 8 294',
        'Arkansas 9 190',
        'California 9 276',
        'Colorado 8 204',
        'x 1 2 3',
      ],
    ],
    ['a code listing', ['x <- c(1, 2, 3)', 'y <- seq(1, 10)', 'plot(x, y)', 'for (i in 1:10) print(i)']],
    ['an empty page', []],
  ])('keeps %s', (_label, texts) => {
    expect(isReferencePage(texts, false)).toBe(false);
  });

  it('takes the short last page of a table of contents after a full one, but not prose after it', () => {
    expect(isReferencePage(['V Bugs 303', 'Known limitations 303', 'VI Index 303'], false)).toBe(false);
    expect(isReferencePage(['V Bugs 303', 'Known limitations 303', 'VI Index 303'], true)).toBe(true);
    expect(
      isReferencePage(
        [
          'Preface',
          'This introduction to R is derived from an original set of notes',
          'describing the S and S-Plus environments.',
        ],
        true,
      ),
    ).toBe(false);
  });
});

describe('stripPageReference', () => {
  it.each([
    ['2 Simple manipulations; numbers and vectors . . 8', '2 Simple manipulations; numbers and vectors'],
    ['Preface . . . . . . . 1', 'Preface'],
    ['Contents. . . . . . . . . xii', 'Contents'],
    ['Features introduced in version 5.4', 'Features introduced in version 5.4'],
    ['Python 3', 'Python 3'],
    ['Logic', 'Logic'],
  ])('%s → %s', (heading, title) => {
    expect(stripPageReference(heading)).toBe(title);
  });
});
