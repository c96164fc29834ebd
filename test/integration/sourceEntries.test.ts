import { randomUUID } from 'node:crypto';
import { createDb } from '../../db/connection';
import { dropEntry, ledgerEntries, orphanedByPath, saveEntry } from '../../db/repositories/sourceEntries';
import { deleteSource, insertSource } from '../../db/repositories/sources';
import { TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// The ledger steps a sync takes for a vanished path, against Postgres: which document to delete,
// and dropping the path, each safe to run again after a worker is lost between them.

const db = createDb(TEST_DATABASE_URL, 2);
const sources = [randomUUID(), randomUUID()];
const syncId = randomUUID();

beforeAll(async () => {
  for (const id of sources)
    await insertSource(db, {
      id,
      userId: 'ledger-user',
      datasetId: 'ledger-dataset',
      kind: 'folder',
      settings: { path: '/tmp' },
      sealedSecret: null,
      everySeconds: 3600,
      cron: null,
    });
});
afterAll(async () => {
  for (const id of sources) await deleteSource(db, id);
  await db.destroy();
});

const save = (sourceId: string, path: string, documentId: string) =>
  saveEntry(db, {
    sourceId,
    path,
    documentId,
    etag: null,
    mtime: null,
    sizeBytes: 1,
    contentSha256: null,
    failureCode: null,
    syncId,
  });

it('names the document of a path no other path holds, and keeps answering until the path is dropped', async () => {
  const [source] = sources as [string];
  await save(source, 'a.md', 'doc-a');
  expect(await orphanedByPath(db, source, 'a.md')).toBe('doc-a');
  expect(await orphanedByPath(db, source, 'a.md')).toBe('doc-a');
  await dropEntry(db, source, 'a.md');
  await dropEntry(db, source, 'a.md');
  expect(await ledgerEntries(db, source, ['a.md'])).toEqual([]);
  expect(await orphanedByPath(db, source, 'a.md')).toBeNull();
});

it('names no document that another path of this or another source still holds', async () => {
  const [first, second] = sources as [string, string];
  await save(first, 'old-name.md', 'doc-renamed');
  await save(first, 'new-name.md', 'doc-renamed');
  expect(await orphanedByPath(db, first, 'old-name.md')).toBeNull();
  await save(first, 'shared.md', 'doc-shared');
  await save(second, 'shared.md', 'doc-shared');
  expect(await orphanedByPath(db, first, 'shared.md')).toBeNull();
  await dropEntry(db, second, 'shared.md');
  expect(await orphanedByPath(db, first, 'shared.md')).toBe('doc-shared');
});
