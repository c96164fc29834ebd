import { randomUUID } from 'node:crypto';
import { findDocument } from '../../db/repositories/documents';
import { getPipeline } from '../../db/repositories/pipelines';
import { ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

const scope = { userId: `user-${randomUUID()}`, datasetId: 'bad-input' };
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker();
});
afterAll(() => tw.shutdown());

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(256, 7)]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(256, 7)]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(512, 0)]);
const OLE2 = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512, 0)]);

it.each([
  ['a GIF image', GIF, 'diagram.gif', 'UNSUPPORTED_FILE_TYPE'],
  ['a PNG whose pixels cannot be decoded', PNG, 'diagram.png', 'CORRUPT_DOCUMENT'],
  ['an executable named .txt', ELF, 'notes.txt', 'UNSUPPORTED_FILE_TYPE'],
  ['a Word 97–2003 document', OLE2, 'minutes.doc', 'LEGACY_OFFICE_FORMAT'],
  ['an empty file', Buffer.alloc(0), 'empty.md', 'EMPTY_DOCUMENT'],
  ['a file of only whitespace', Buffer.from('\n\n   \n\t\n'), 'blank.txt', 'EMPTY_DOCUMENT'],
])(
  '%s ends FAILED at CLEANING with its code, and the worker still serves the next document',
  async (_label, bytes, name, code) => {
    const bad = await ingestBuffer(tw, bytes, name, scope);
    const good = await ingestBuffer(tw, `# Fine\n\nA perfectly ordinary document ${randomUUID()}.\n`, 'fine.md', scope);

    const failed = await waitTerminal(tw.client, bad.documentId);
    expect(failed).toMatchObject({ status: 'FAILED', failureCode: code, waitingForRetry: true });
    const doc = await findDocument(tw.adapters.db, bad.documentId);
    const pipeline = await getPipeline(tw.adapters.db, doc?.last_task_id ?? '');
    expect(pipeline).toMatchObject({
      pipeline_status: 'FAILED',
      cleaning_status: 'FAILED',
      chunking_status: 'PENDING',
      failed_stage: 'CLEANING',
      recover_from_stage: 'CLEANING',
      failure_code: code,
    });
    expect(pipeline.failure_reason?.startsWith(`${code}: `)).toBe(true);
    expect(pipeline.finished_at).toBeInstanceOf(Date);

    expect((await waitTerminal(tw.client, good.documentId)).status).toBe('SUCCESS');
  },
);
