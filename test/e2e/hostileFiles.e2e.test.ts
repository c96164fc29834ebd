import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { findDocument } from '../../db/repositories/documents';
import { getPipeline } from '../../db/repositories/pipelines';
import { docxNestedArchiveBomb, pdfStreamBomb, xlsxSharedStringBomb } from '../../testkit/fixtures/bombFixtures';
import { debianDocPath } from '../../testkit/fixtures/debianDocs';
import { docxFixture } from '../../testkit/fixtures/officeFixtures';
import { ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { fixturePdf } from '../../testkit/fixtures/pdfFixture';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';
import { zipFixture } from '../../testkit/fixtures/zipFixture';

const scope = { userId: `user-${randomUUID()}`, datasetId: 'hostile' };
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const MAX_UNCOMPRESSED_BYTES = 8 * 1024 * 1024;
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker({
    config: testConfig({
      SLUICE_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      SLUICE_MAX_UNCOMPRESSED_BYTES: String(MAX_UNCOMPRESSED_BYTES),
      // A parse process may hold 512 MB, whatever part of it is heap (docs/document-memory.md).
      SLUICE_PARSE_HEAP_MB: '256',
      SLUICE_PARSE_MEMORY_MB: '512',
    }),
  });
});
afterAll(() => tw.shutdown());

/** Built lazily: the real PDF comes from the Debian package cache. */
const HOSTILE: [string, () => Buffer | Promise<Buffer>, string, string][] = [
  [
    'a truncated PDF',
    () => readFileSync(debianDocPath('gnuplot-doc', 'usr/share/doc/gnuplot/gnuplot.pdf')).subarray(0, 400_000),
    'manual.pdf',
    'CORRUPT_DOCUMENT',
  ],
  ['random bytes named .pdf', () => randomBytes(64 * 1024), 'scan.pdf', 'UNSUPPORTED_FILE_TYPE'],
  [
    'a text file named .docx',
    () => Buffer.from('This is not a Word document, only text.\n'),
    'report.docx',
    'UNSUPPORTED_FILE_TYPE',
  ],
  [
    'a ZIP named .docx without a document part',
    () => zipFixture([{ name: 'readme.txt', data: 'hello' }]),
    'letter.docx',
    'UNSUPPORTED_FILE_TYPE',
  ],
  [
    'a zip-bomb .docx',
    () => docxFixture([{ text: 'bait' }], [{ name: 'word/media/bomb.bin', data: Buffer.alloc(64 * 1024 * 1024) }]),
    'bomb.docx',
    'FILE_TOO_LARGE',
  ],
  [
    'an encrypted PDF',
    () => fixturePdf([[{ text: 'secret salaries' }]], { encrypted: true }),
    'locked.pdf',
    'ENCRYPTED_DOCUMENT',
  ],
  ['an empty file', () => Buffer.alloc(0), 'nothing.pdf', 'EMPTY_DOCUMENT'],
  [
    'broken UTF-16',
    () =>
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('Broken text ', 'utf16le'),
        Buffer.from(Array.from({ length: 512 }, (_, i) => (i % 2 ? 0xd8 : 0x41))),
      ]),
    'broken.txt',
    'INVALID_TEXT_ENCODING',
  ],
  ['a 600 KB PDF whose content stream inflates to 600 MB', () => pdfStreamBomb(600), 'bomb.pdf', 'FILE_TOO_LARGE'],
  [
    'a workbook whose one shared string fills 20,000 cells',
    () => xlsxSharedStringBomb(10, 20_000),
    'bomb.xlsx',
    'FILE_TOO_LARGE',
  ],
  ['a DOCX embedding archives of archives', () => docxNestedArchiveBomb(2, 10, 100), 'nested.docx', 'FILE_TOO_LARGE'],
  ['a file over the size limit', () => Buffer.alloc(MAX_FILE_BYTES + 1, 'a'), 'huge.txt', 'FILE_TOO_LARGE'],
];

it.each(HOSTILE)(
  '%s ends FAILED at CLEANING with its code, and the worker still serves the next document',
  async (_label, bytes, name, code) => {
    const bad = await ingestBuffer(tw, await bytes(), name, scope);
    const good = await ingestBuffer(tw, `# Fine\n\nA perfectly ordinary document ${randomUUID()}.\n`, 'fine.md', scope);

    expect(await waitTerminal(tw.client, bad.documentId)).toMatchObject({ status: 'FAILED', failureCode: code });
    const doc = await findDocument(tw.adapters.db, bad.documentId);
    const pipeline = await getPipeline(tw.adapters.db, doc?.last_task_id ?? '');
    expect(pipeline).toMatchObject({ cleaning_status: 'FAILED', failed_stage: 'CLEANING', failure_code: code });
    expect(pipeline.failure_reason?.startsWith(`${code}: `)).toBe(true);

    expect((await waitTerminal(tw.client, good.documentId)).status).toBe('SUCCESS');
  },
);

it('ingests a single 2 MB line as sane children: each within the token budget, nothing lost', async () => {
  const words = Array.from({ length: (2 * 1024 * 1024) / 8 }, (_, i) => `w${(i % 9973).toString(36).padStart(5, '0')}`);
  const line = words.join(' ');
  const { documentId } = await ingestBuffer(tw, line, 'one-line.txt', scope);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  // Whole rows: the token counts the chunker recorded are what is checked.
  const children = await tw.adapters.db
    .selectFrom('chunks')
    .selectAll()
    .where('document_id', '=', documentId)
    .where('kind', '=', 'child')
    .orderBy('chunk_index')
    .execute();
  expect(children.length).toBeGreaterThan(500);
  expect(children.every((chunk) => chunk.token_count <= tw.config.chunking.maxTokens && chunk.token_count > 50)).toBe(
    true,
  );
  expect(children[0]!.text.startsWith(words[0]!)).toBe(true);
  expect(children[children.length - 1]!.text.endsWith(words[words.length - 1]!)).toBe(true);
});
