import { randomUUID } from 'node:crypto';
import { deleteDocument } from '../../client/documentAdmin';
import { deleteWorkflowId } from '../../contracts/deletion';
import { ingestWorkflowId } from '../../contracts/ingest';
import { countChunks } from '../../db/repositories/chunks';
import { findDocument } from '../../db/repositories/documents';
import { hybridSearch } from '../../search/hybridSearch';
import { objectKeys } from '../../stores/objectKeys';
import { eventually, ingestBuffer, sectionedMarkdown, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

const scope = { userId: `user-${randomUUID()}`, datasetId: 'deletion' };
let tw: TestWorker;

beforeAll(async () => {
  // Tiny embedding batches keep VECTORIZING busy long enough to delete in the middle of it.
  tw = await startTestWorker({ config: testConfig({ SLUICE_EMBED_BATCH_SIZE: '2' }) });
});
afterAll(() => tw.shutdown());

async function leftovers(documentId: string) {
  const db = tw.adapters.db;
  const rows = async (
    table:
      | 'documents'
      | 'parse_tasks'
      | 'pipelines'
      | 'chunks'
      | 'notifications'
      | 'keyword_entries'
      | 'dense_vectors'
      | 'sparse_vectors',
  ) => {
    const column = table === 'documents' ? 'id' : 'document_id';
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(column, '=', documentId)
      .executeTakeFirstOrThrow();
    return row.n;
  };
  return {
    documents: await rows('documents'),
    parse_tasks: await rows('parse_tasks'),
    pipelines: await rows('pipelines'),
    chunks: await rows('chunks'),
    notifications: await rows('notifications'),
    keyword_entries: await rows('keyword_entries'),
    dense_vectors: await rows('dense_vectors'),
    sparse_vectors: await rows('sparse_vectors'),
    objects: await tw.adapters.objects.deletePrefix(objectKeys.documentPrefix(scope.userId, documentId)),
  };
}

const NOTHING = {
  documents: 0,
  parse_tasks: 0,
  pipelines: 0,
  chunks: 0,
  notifications: 0,
  keyword_entries: 0,
  dense_vectors: 0,
  sparse_vectors: 0,
  objects: 0,
};

it('deleting while VECTORIZING runs cancels the run and leaves no row, vector, entry or object', async () => {
  const { documentId } = await ingestBuffer(tw, sectionedMarkdown(1200, 'doomed'), 'doomed.md', scope);
  await eventually(
    () => countChunks(tw.adapters.db, documentId),
    (c) => c.dense > 0,
    120_000,
    20,
  );

  const result = await deleteDocument(tw, { documentId, ...scope });
  expect(result).toMatchObject({ documentId, existed: true });
  expect(result.objectsDeleted).toBeGreaterThanOrEqual(2);

  const description = await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).describe();
  expect(description.status.name).toBe('CANCELLED');
  expect(await leftovers(documentId)).toEqual(NOTHING);
}, 180_000);

it('deleting a finished document removes it from search and every store; deleting again is a no-op', async () => {
  const { documentId } = await ingestBuffer(
    tw,
    '# Gone soon\n\nThe ultraviolet pelican migrates at dawn.\n',
    'gone.md',
    scope,
  );
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  expect((await hybridSearch(tw.adapters, scope, 'ultraviolet pelican', 3))[0]?.documentId).toBe(documentId);

  expect(await deleteDocument(tw, { documentId, ...scope })).toMatchObject({ existed: true });
  expect(await hybridSearch(tw.adapters, scope, 'ultraviolet pelican', 3)).toEqual([]);
  expect(await leftovers(documentId)).toEqual(NOTHING);
  // A second delete of the same document joins or repeats the finished deletion harmlessly.
  expect((await deleteDocument(tw, { documentId, ...scope })).documentId).toBe(documentId);
});

it('refuses a deletion that names another user or dataset: the document, its run and its search hits stay', async () => {
  const { documentId } = await ingestBuffer(tw, '# Kept\n\nThe vermilion heron stays indexed.\n', 'kept.md', scope);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');

  for (const stranger of [{ userId: `user-${randomUUID()}` }, { userId: scope.userId, datasetId: 'another-dataset' }]) {
    const refused = deleteDocument(tw, { documentId, ...stranger });
    await expect(refused).rejects.toMatchObject({ cause: { type: 'ID_MISMATCH', nonRetryable: true } });
    // The failed deletion closed; the owner's own deletion may use the id later.
    const description = await tw.client.workflow.getHandle(deleteWorkflowId(documentId)).describe();
    expect(description.status.name).toBe('FAILED');
  }
  const row = await findDocument(tw.adapters.db, documentId);
  expect(row?.lifecycle).toBe('ACTIVE');
  expect((await hybridSearch(tw.adapters, scope, 'vermilion heron', 3))[0]?.documentId).toBe(documentId);
  // The ingestion run was not cancelled: it closed as it had, with SUCCESS.
  const run = await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).describe();
  expect(run.status.name).toBe('COMPLETED');

  expect(await deleteDocument(tw, { documentId, ...scope })).toMatchObject({ existed: true });
  expect(await leftovers(documentId)).toEqual(NOTHING);
});
