import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { encode } from 'iconv-lite';
import type { ChunkRow } from '../../db/database';
import { hybridSearch } from '../../search/hybridSearch';
import { debianDocPath } from '../../testkit/fixtures/debianDocs';
import { ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

/**
 * Real documents nobody here wrote, from Debian's doc packages: a 300-page LaTeX manual as PDF,
 * DocBook HTML pages, and a Chinese FAQ both as HTML and as plain text re-encoded to GB18030.
 * Each named passage must land in a child chunk under the right section path, and hybrid search
 * must return that chunk for a query in the document's own words.
 */
const scope = { userId: `user-${randomUUID()}`, datasetId: 'debian-docs' };
let tw: TestWorker;
const documents = new Map<string, string>();

const GNUPLOT = 'usr/share/doc/gnuplot/gnuplot.pdf';
const PG_HTML = 'usr/share/doc/postgresql-doc-15/html';
const FAQ = 'usr/share/doc/debian/FAQ';

interface Passage {
  document: string;
  phrase: string;
  /** Expected section path: each entry must be contained in the title at that depth. */
  path: string[];
  query: string;
}

const PASSAGES: Passage[] = [
  {
    document: 'gnuplot.pdf',
    phrase: 'Gnuplot uses three forms of quote marks',
    path: ['Gnuplot', 'Syntax', 'Quote Marks'],
    query: 'three forms of quote marks for delimiting text strings',
  },
  {
    document: 'gnuplot.pdf',
    phrase:
      'The isoline density (grid) for plotting functions as surfaces may be changed by the set isosamples command',
    path: ['Commands', 'Set-show', 'Isosamples'],
    query: 'isoline density grid for surfaces isosamples',
  },
  {
    document: 'monitoring-stats.html',
    phrase:
      'view will have one row per server process, showing information related to the current activity of that process',
    path: ['28.2. The Cumulative Statistics System', '28.2.3. `pg_stat_activity`'],
    query: 'pg_stat_activity one row per server process',
  },
  {
    document: 'sql-createindex.html',
    phrase: 'constructs an index on the specified column(s) of the specified relation',
    path: ['CREATE INDEX', 'Description'],
    query: 'constructs an index on the specified column of the relation',
  },
  {
    document: 'basic-defs.zh-cn.html',
    phrase: '本文档提供了关于 Debian 发行版',
    path: ['第 1 章 定义和概览', '1.1. 本 FAQ 文档是什么？'],
    query: 'Debian 发行版 常见问题 解答',
  },
  {
    document: 'debian-faq.gb18030.txt',
    phrase: '本文档解答一些关于 Debian GNU/Linux 的常见问题',
    path: [],
    query: '本文档解答一些关于 Debian 的常见问题',
  },
];

beforeAll(async () => {
  const faqText = gunzipSync(
    readFileSync(debianDocPath('debian-faq-zh-cn', `${FAQ}/debian-faq.zh-cn.txt.gz`)),
  ).toString('utf8');
  const files: [string, Buffer][] = [
    ['gnuplot.pdf', readFileSync(debianDocPath('gnuplot-doc', GNUPLOT))],
    ['monitoring-stats.html', readFileSync(debianDocPath('postgresql-doc-15', `${PG_HTML}/monitoring-stats.html`))],
    ['sql-createindex.html', readFileSync(debianDocPath('postgresql-doc-15', `${PG_HTML}/sql-createindex.html`))],
    ['basic-defs.zh-cn.html', readFileSync(debianDocPath('debian-faq-zh-cn', `${FAQ}/zh-cn/basic-defs.zh-cn.html`))],
    ['debian-faq.gb18030.txt', encode(faqText, 'gb18030')],
  ];
  tw = await startTestWorker();
  for (const [name, bytes] of files) documents.set(name, (await ingestBuffer(tw, bytes, name, scope)).documentId);
  for (const [name, documentId] of documents) {
    const progress = await waitTerminal(tw.client, documentId, 600_000);
    if (progress.status !== 'SUCCESS')
      throw new Error(`${name} ended ${progress.status}: ${progress.failureCode} ${JSON.stringify(progress)}`);
  }
}, 900_000);
afterAll(() => tw?.shutdown());

async function childChunks(documentId: string): Promise<ChunkRow[]> {
  return tw.adapters.db
    .selectFrom('chunks')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('kind', '=', 'child')
    .orderBy('chunk_index')
    .execute();
}

it.each(PASSAGES)(
  '$document: "$phrase" lands under its section and search finds it',
  async ({ document, phrase, path, query }) => {
    const documentId = documents.get(document)!;
    const holders = (await childChunks(documentId)).filter((chunk) => chunk.text.includes(phrase));
    expect(holders.length).toBeGreaterThan(0);
    expect(holders.map((chunk) => chunk.section_path)).toEqual(
      expect.arrayContaining([path.map((title) => expect.stringContaining(title))]),
    );

    const hits = await hybridSearch(tw.adapters, scope, query, 5);
    expect(hits.some((hit) => hit.documentId === documentId && hit.text.includes(phrase))).toBe(true);
  },
);

it('parses the 311-page manual into many sections, with parents recording their child ranges', async () => {
  const documentId = documents.get('gnuplot.pdf')!;
  const parents = await tw.adapters.db
    .selectFrom('chunks')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('kind', '=', 'parent')
    .execute();
  expect(parents.length).toBeGreaterThan(300);
  const children = await childChunks(documentId);
  expect(children.length).toBeGreaterThan(800);
  for (const parent of parents.slice(0, 50)) {
    const mine = children.filter((child) => child.parent_id === parent.chunk_id).map((child) => child.chunk_index);
    expect([Math.min(...mine), Math.max(...mine)]).toEqual([parent.child_first_index, parent.child_last_index]);
  }
  // Running headers ("gnuplot 5.4   21") are gone from the text.
  expect(children.filter((child) => /gnuplot 5\.4\s+\d+\s*$/m.test(child.text))).toHaveLength(0);
});

it("gives the manual's chunks their PDF pages, in document order, within its page count", async () => {
  const documentId = documents.get('gnuplot.pdf')!;
  const row = await tw.adapters.db
    .selectFrom('documents')
    .select(['page_count', 'language'])
    .where('id', '=', documentId)
    .executeTakeFirstOrThrow();
  // The page count is the last page with text: the manual's last pages are blank.
  expect(row.language).toBe('en');
  expect(row.page_count).toBeGreaterThan(300);
  expect(row.page_count).toBeLessThanOrEqual(311);
  const paged = await tw.adapters.db
    .selectFrom('chunks')
    .select(['chunk_index', 'page_first', 'page_last'])
    .where('document_id', '=', documentId)
    .where('kind', '=', 'child')
    .orderBy('chunk_index')
    .execute();
  const withPages = paged.filter((c) => c.page_first !== null);
  expect(withPages.length / paged.length).toBeGreaterThan(0.99);
  let before = 1;
  for (const chunk of withPages) {
    expect(chunk.page_first).toBeGreaterThanOrEqual(before);
    expect(chunk.page_last).toBeGreaterThanOrEqual(chunk.page_first as number);
    expect(chunk.page_last).toBeLessThanOrEqual(311);
    before = chunk.page_first as number;
  }
  expect(withPages[withPages.length - 1]?.page_last).toBe(row.page_count);
});
