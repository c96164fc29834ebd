import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { splitSections } from '../../../chunker/splitSections';
import { stripPageMarkers } from '../../../chunker/chunkPages';

const withoutPageMarkers = (markdown: string): string => stripPageMarkers(markdown).text;
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { parseToMarkdown } from '../../../parsers/parseToMarkdown';
import {
  fixtureBaseline,
  fixturePdf,
  type FixtureBookmark,
  type FixtureLine,
} from '../../../testkit/fixtures/pdfFixture';

/** Structure from the document itself: the outline's headings, TOC and index pages left out. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-pdf-structure-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function parsePdf(bytes: Buffer): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  // The page markers have their own test (pdfPageMarkers.test.ts); these are about the structure.
  return withoutPageMarkers(await parseToMarkdown(file, 'pdf', DEFAULT_PARSE_LIMITS));
}

const body = (text: string): FixtureLine => ({ text });
/** Just above the n-th line's baseline, where a typesetter puts a bookmark's destination. */
const above = (n: number): number => fixtureBaseline(n) + 8;

/** A reference manual: one topic per bookmark, the topic's name and title on one body-size line. */
const manual: FixtureLine[][] = [
  [
    { text: 'The base package', size: 20 },
    body('abs Miscellaneous Mathematical Functions'),
    body('Description'),
    body('abs(x) computes the absolute value of x.'),
  ],
  [
    body('all.equal Test if Two Objects are Nearly Equal'),
    body('Description'),
    body('all.equal(x, y) is a utility to compare R objects.'),
    body('Details'),
    body('The tolerance is 1.5e-8.'),
  ],
  [
    { text: 'The stats package', size: 20 },
    body('sd Standard Deviation'),
    body('Description'),
    body('This function computes the standard deviation.'),
  ],
];
const bookmarks: FixtureBookmark[] = [
  {
    title: 'The base package',
    page: 0,
    top: 760,
    children: [
      { title: 'abs', page: 0, top: above(1) },
      { title: 'all.equal', page: 1, top: above(0) },
      { title: 'Notes', page: 1, top: above(3) },
    ],
  },
  { title: 'The stats package', page: 2, top: 760, children: [{ title: 'sd', page: 2, top: above(1) }] },
];

describe('PDF structure from the document (in the parse thread)', () => {
  it.each([
    ['explicit destinations', false],
    ['named destinations', true],
  ])(
    'takes headings and section paths from the outline (%s), each replacing the line it points at',
    async (_label, namedDestinations) => {
      const markdown = await parsePdf(fixturePdf(manual, { outline: bookmarks, namedDestinations }));
      const paths = splitSections(markdown)
        .filter((section) => section.heading)
        .map((section) => section.path.join(' > '));
      expect(paths).toEqual([
        'The base package',
        'The base package > abs',
        'The base package > all.equal',
        'The base package > Notes',
        'The stats package',
        'The stats package > sd',
      ]);
      // The line's rest stays as text, the bookmarked line is not repeated, an unmatched bookmark sits at its top.
      expect(markdown).toContain('## abs\n\nMiscellaneous Mathematical Functions Description abs(x)');
      expect(markdown).toContain(
        'all.equal(x, y) is a utility to compare R objects.\n\n## Notes\n\nDetails The tolerance',
      );
      expect(markdown.match(/The base package/g)).toHaveLength(1);
    },
  );

  it('takes headings from font sizes when the document has no outline', async () => {
    const markdown = await parsePdf(fixturePdf(manual));
    expect(markdown).toMatch(/^# The base package$/m);
    expect(markdown).not.toMatch(/^#+ abs/m);
  });

  it('leaves table-of-contents and index pages out, keeps the content, and no page number ends a heading', async () => {
    const intro =
      'R is an integrated suite of software facilities for data manipulation, calculation and graphical display.';
    const arrays =
      'The function aperm permutes the dimensions of an array, a generalized transpose of a matrix of any rank.';
    const toc = [
      { text: 'Table of Contents', size: 16 },
      ...[
        '1 Introduction . . . . . . . . 3',
        '1.1 Getting started . . . . . 3',
        '1.2 Vectors and assignment . . 3',
        '2 Arrays and matrices . . . . 4',
        '2.1 Generalized transpose of an array . . 4',
        'Index . . . . . . . 5',
      ].map(body),
    ];
    const index = [
      { text: 'Index', size: 16 },
      ...['aperm, 4', 'array, 4, 5', 'assignment, 3', 'c, 3', 'matrices, 4', 'transpose, 4', 'vectors, 3'].map(body),
    ];
    const pages = [
      toc,
      // A gap first: first lines at one height on most pages would make a running-header band.
      [
        { text: '' },
        { text: '1 Introduction', size: 16 },
        body(intro),
        { text: 'Results . . 12', size: 16 },
        body('Assignment uses the <- operator.'),
      ],
      [{ text: '' }, { text: '2 Arrays and matrices', size: 16 }, body(arrays)],
      index,
    ];
    const markdown = await parsePdf(fixturePdf(pages));
    expect(markdown).toBe(
      [
        '# 1 Introduction',
        intro,
        '# Results',
        'Assignment uses the <- operator.',
        '# 2 Arrays and matrices',
        arrays,
      ].join('\n\n'),
    );
  });
});
