import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { documentStatus, formatStatus } from '../../cli/commands/documentStatus';
import { hybridSearch } from '../../search/hybridSearch';
import { ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { blankPng, SCANNED_SAMPLES } from '../../testkit/fixtures/scanFixtures';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

/**
 * The scanned samples `sluice demo` ingests (an English and a Chinese image-only PDF, a page as
 * PNG) through the real worker on the dev server: each ends SUCCESS with chunks that say they
 * came from OCR, search finds them in their own words, and `sluice status` lists the OCR'd pages.
 * A blank image is the one EMPTY_DOCUMENT: OCR found nothing in it either.
 */
const scope = { userId: `user-${randomUUID()}`, datasetId: 'scans' };
let tw: TestWorker;
const ids = new Map<string, string>();

const SAMPLES: [string, string, string][] = [
  ['scanned-debmake-guide.en.pdf', SCANNED_SAMPLES.englishPdf, 'debmake command delegates the heavy lifting'],
  ['扫描-debmake-指南.zh-cn.pdf', SCANNED_SAMPLES.chinesePdf, 'Debian 维护者指南 软件包'],
  ['scanned-page.en.png', SCANNED_SAMPLES.englishPng, 'generated binary package lacks meaningful package description'],
];

beforeAll(async () => {
  // The per-page limit is wall-clock: generous here, so a loaded machine cannot fail the suite.
  tw = await startTestWorker({ config: testConfig({ SLUICE_OCR_PAGE_TIMEOUT: '30m', SLUICE_PARSE_TIMEOUT: '30m' }) });
  for (const [name, file] of SAMPLES)
    ids.set(name, (await ingestBuffer(tw, readFileSync(file), name, scope)).documentId);
  ids.set('blank.png', (await ingestBuffer(tw, blankPng(), 'blank.png', scope)).documentId);
}, 120_000);
afterAll(() => tw?.shutdown());

it.each(SAMPLES)(
  '%s ingests to SUCCESS from OCR and search finds it',
  async (name, _file, query) => {
    const documentId = ids.get(name)!;
    const progress = await waitTerminal(tw.client, documentId, 900_000);
    expect({ status: progress.status, code: progress.failureCode }).toEqual({ status: 'SUCCESS', code: null });

    const children = await tw.adapters.db
      .selectFrom('chunks')
      .select(['text', 'ocr_confidence'])
      .where('document_id', '=', documentId)
      .where('kind', '=', 'child')
      .execute();
    expect(children.length).toBeGreaterThan(0);
    for (const chunk of children) {
      expect(chunk.text).not.toContain('<!-- sluice:');
      expect(chunk.ocr_confidence).toBeGreaterThan(0.8);
    }
    const hits = await hybridSearch(tw.adapters, scope, query, 5);
    expect(hits.map((hit) => hit.documentId)).toContain(documentId);

    const report = await documentStatus(tw.adapters.db, documentId);
    expect(report?.ocrPages.length).toBeGreaterThan(0);
    expect(formatStatus(report!, 'http://ui')).toMatch(/^ocr {7}\d pages?: 1 \((no-text|image), 0\.\d\d\)/m);
  },
  900_000,
);

it('fails a blank image as EMPTY_DOCUMENT, with the reason that OCR found no text', async () => {
  const documentId = ids.get('blank.png')!;
  const progress = await waitTerminal(tw.client, documentId, 900_000);
  expect(progress.status).toBe('FAILED');
  expect(progress.failureCode).toBe('EMPTY_DOCUMENT');
  const report = await documentStatus(tw.adapters.db, documentId);
  expect(report?.failureReason).toContain('OCR found no text');
}, 900_000);
