import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createCleaningActivity } from '../../activities/stages/cleaning';
import type { StageInput } from '../../contracts/ingest';
import { createCpuPool, type CpuPool } from '../../cpuPool/pool';
import { createDb } from '../../db/connection';
import { insertDocument } from '../../db/repositories/documents';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { findTask } from '../../db/repositories/tasks';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from '../../parsers/parseLimits';
import { createLocalObjectStore } from '../../stores/localObjectStore';
import { blankPng, mixedPdf, SCANNED_SAMPLES, scannedPageJpeg } from '../../testkit/fixtures/scanFixtures';
import { partialDeps, runAttempt } from '../../testkit/harness/stageHarness';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// CLEANING on scanned pages and image uploads, with the real parse processes and OCR engine:
// what was OCR'd is recorded on the task, the markdown marks it, and OCR's limits fail the
// document classified while the pool goes on serving.

const db = createDb(TEST_DATABASE_URL, 4);
const root = path.join(os.tmpdir(), `sluice-cleaning-ocr-${randomUUID()}`);
const objects = createLocalObjectStore(path.join(root, 'objects'));
// The per-page limit is wall-clock: generous here, so a loaded machine cannot fail a test that is not about it.
const ROOMY: ParseLimits = {
  ...DEFAULT_PARSE_LIMITS,
  timeoutMs: 30 * 60_000,
  ocr: { ...DEFAULT_PARSE_LIMITS.ocr, pageTimeoutMs: 30 * 60_000 },
};
const cpu = createCpuPool({ threads: 1, limits: ROOMY });
const pools: CpuPool[] = [cpu];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  await db.destroy();
  fs.rmSync(root, { recursive: true, force: true });
});
jest.setTimeout(600_000);

function cleaning(pool: CpuPool = cpu) {
  const settings = {
    tmpDir: path.join(root, 'tmp'),
    maxFileBytes: 50 * 1024 * 1024,
    quota: { maxBytes: 1e12, maxDocuments: 1e6 },
  };
  return createCleaningActivity(partialDeps({ db, objects, cpu: pool, settings: settings as never }));
}

async function seed(fileName: string, bytes: Buffer): Promise<StageInput> {
  const doc = { documentId: randomUUID(), userId: `u-${randomUUID()}`, datasetId: 'scans' };
  const key = `sources/${doc.documentId}`;
  await objects.putStream(key, Readable.from([bytes]));
  await insertDocument(db, {
    id: doc.documentId,
    user_id: doc.userId,
    dataset_id: doc.datasetId,
    file_name: fileName,
    size_bytes: bytes.length,
    content_sha256: randomUUID(),
    source_object_key: key,
  });
  const input = { ...doc, taskId: randomUUID() };
  await insertTaskWithPipeline(db, { taskId: input.taskId, documentId: doc.documentId, ownerRunChain: randomUUID() });
  return input;
}

async function clean(fileName: string, bytes: Buffer, pool?: CpuPool) {
  const input = await seed(fileName, bytes);
  const { error } = (await runAttempt(cleaning(pool), input).outcome) as { error?: Error };
  const task = await findTask(db, input.taskId);
  const markdown = task?.markdown_object_key ? await objects.getText(task.markdown_object_key) : null;
  return { error, task, markdown };
}

it('OCRs a scanned English PDF: both pages recorded with their confidence, the text in the markdown', async () => {
  const { error, task, markdown } = await clean('scan.pdf', fs.readFileSync(SCANNED_SAMPLES.englishPdf));
  expect(error).toBeUndefined();
  expect(task?.ocr_pages?.map((p) => [p.page, p.reason])).toEqual([
    [1, 'no-text'],
    [2, 'no-text'],
  ]);
  for (const page of task!.ocr_pages!) expect(page.confidence).toBeGreaterThan(0.9);
  expect(markdown).toContain('debmake');
  expect(markdown).toMatch(/^<!-- sluice:ocr page=1 confidence=0\.9\d\d -->$/m);
});

it('OCRs a scanned Chinese PDF', async () => {
  const { error, task, markdown } = await clean('扫描.pdf', fs.readFileSync(SCANNED_SAMPLES.chinesePdf));
  expect(error).toBeUndefined();
  expect(task?.ocr_pages).toHaveLength(2);
  expect(markdown).toContain('软件包');
});

it('OCRs only the image page of a mixed PDF; the text page keeps its text layer', async () => {
  const lines = ['Typeset page one of a mixed document.', 'Its text layer is exact and is kept as it is.'];
  const { error, task, markdown } = await clean('mixed.pdf', mixedPdf(lines, await scannedPageJpeg()));
  expect(error).toBeUndefined();
  expect(task?.ocr_pages?.map((p) => [p.page, p.reason])).toEqual([[2, 'no-text']]);
  expect(markdown).toContain('Its text layer is exact and is kept as it is.');
  expect(markdown).toContain('debmake');
  expect(markdown!.indexOf('Typeset page one')).toBeLessThan(markdown!.indexOf('<!-- sluice:ocr page=2'));
});

it('OCRs an image upload, detected by its bytes', async () => {
  const { error, task, markdown } = await clean('page.bin', fs.readFileSync(SCANNED_SAMPLES.englishPng));
  expect(error).toBeUndefined();
  expect(task?.detected_type).toBe('png');
  expect(task?.ocr_pages?.map((p) => p.reason)).toEqual(['image']);
  expect(markdown).toContain('Overview');
});

it('fails a blank image as EMPTY_DOCUMENT: OCR found nothing either', async () => {
  const { error, task } = await clean('blank.png', blankPng());
  expect(error).toMatchObject({ type: 'EMPTY_DOCUMENT', nonRetryable: true });
  expect(error?.message).toContain('OCR found no text');
  expect(task?.markdown_object_key).toBeNull();
});

it('fails a page over the per-page time limit as PARSE_TIMEOUT, and the pool parses the next document', async () => {
  const limits: ParseLimits = { ...DEFAULT_PARSE_LIMITS, ocr: { ...DEFAULT_PARSE_LIMITS.ocr, pageTimeoutMs: 1 } };
  const slow = createCpuPool({ threads: 1, limits });
  pools.push(slow);
  const { error } = await clean('scan.pdf', fs.readFileSync(SCANNED_SAMPLES.englishPdf), slow);
  expect(error).toMatchObject({ type: 'PARSE_TIMEOUT', nonRetryable: true });
  expect(error?.message).toMatch(/OCR of page 1 took longer than the 1 ms per-page limit \(SLUICE_OCR_PAGE_TIMEOUT\)/);
  const next = await clean('notes.md', Buffer.from('# Still serving\n\nThe next document parses.\n'), slow);
  expect(next.error).toBeUndefined();
  expect(next.markdown).toContain('The next document parses.');
});

it('fails a document needing OCR on more pages than the cap as FILE_TOO_LARGE', async () => {
  const limits: ParseLimits = { ...ROOMY, ocr: { ...ROOMY.ocr, maxPages: 1 } };
  const capped = createCpuPool({ threads: 1, limits });
  pools.push(capped);
  const { error } = await clean('scan.pdf', fs.readFileSync(SCANNED_SAMPLES.englishPdf), capped);
  expect(error).toMatchObject({ type: 'FILE_TOO_LARGE', nonRetryable: true });
  expect(error?.message).toContain('SLUICE_OCR_MAX_PAGES');
});
