import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { replaceDocumentContent, type ReplaceOutcome } from '../../client/replaceContent';
import { ingestWorkflowId } from '../../contracts/ingest';
import { findDocument } from '../../db/repositories/documents';
import { getTask } from '../../db/repositories/tasks';
import { hybridSearch } from '../../search/hybridSearch';
import { objectKeys } from '../../stores/objectKeys';
import { ingestBuffer, waitForTask, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// Everything real (dev server, Postgres stores, the hashing embedder for the first dense vector and
// the bge models for the second, with passage windows): a document's content is replaced in place.
// Its id stays, only the chunks whose text changed are embedded again (every vector kind), search
// switches from the old text to the new, and the replaced source is removed.

const scope = { userId: `user-${randomUUID()}`, datasetId: 'replace' };
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker({
    config: testConfig({ SLUICE_LANGUAGE_DENSE: 'on', SLUICE_PASSAGE_WINDOWS: 'on' }),
  });
});
afterAll(() => tw.shutdown());

/** Twelve sections of a few sentences each: an edit of one paragraph touches one section's chunks. */
function manual(edited: number | null): string {
  let text = '# Lantern manual\n\n';
  for (let i = 0; i < 12; i++) {
    text += `## Part ${i}\n\n`;
    text += `The lantern part ${i} describes the copper${i} hinge. It opens at dusk and closes at dawn. `;
    text += `Its wick is trimmed every ${i + 2} days and the glass is cleaned with a dry cloth. `;
    text += `A spare wick for part ${i} is kept in the drawer. The oil is filled to the line. Keep it upright.\n\n`;
    if (i === edited) text += 'A new paragraph says that the sapphire valve must be checked before winter.\n\n';
  }
  return text;
}

const replace = (documentId: string, content: string, fileName = 'manual.md'): Promise<ReplaceOutcome> =>
  replaceDocumentContent(
    { db: tw.adapters.db, objects: tw.adapters.objects, client: tw.client, config: tw.config },
    scope,
    documentId,
    {
      fileName,
      body: Readable.from([Buffer.from(content)]),
    },
  );

const servedChildren = async (documentId: string) => {
  const doc = await findDocument(tw.adapters.db, documentId);
  return tw.adapters.db
    .selectFrom('chunks')
    .select(['chunk_id', 'text', 'vector_reused', 'language_vector_reused', 'dense_status', 'language_dense_status'])
    .where('document_id', '=', documentId)
    .where('generation', '=', doc?.index_generation ?? -1)
    .where('kind', '=', 'child')
    .execute();
};

const count = async (table: 'dense_vectors' | 'language_dense_vectors' | 'window_dense_vectors', documentId: string) =>
  Number(
    (
      await tw.adapters.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('document_id', '=', documentId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** How many passage windows each served child holds, by its text. */
async function windowsByText(documentId: string): Promise<Map<string, number>> {
  const rows = await tw.adapters.db
    .selectFrom('chunks as c')
    .leftJoin('window_dense_vectors as w', 'w.chunk_id', 'c.chunk_id')
    .innerJoin('documents as d', 'd.id', 'c.document_id')
    .select(['c.text', (eb) => eb.fn.count<number>('w.window_id').as('n')])
    .where('c.document_id', '=', documentId)
    .whereRef('c.generation', '=', 'd.index_generation')
    .where('c.kind', '=', 'child')
    .groupBy('c.text')
    .execute();
  return new Map(rows.map((r) => [r.text, Number(r.n)]));
}

it('replaces a document in place: same id, only changed chunks embedded, search switched, old source gone', async () => {
  const { documentId } = await ingestBuffer(tw, manual(null), 'manual.md', scope);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).result();
  const before = await findDocument(tw.adapters.db, documentId);
  const oldChildren = await servedChildren(documentId);
  const oldTexts = new Set(oldChildren.map((c) => c.text));
  const windowsBefore = await windowsByText(documentId);
  expect(oldChildren.length).toBeGreaterThanOrEqual(12);
  expect(await hybridSearch(tw.adapters, scope, 'sapphire valve winter', 3)).not.toContainEqual(
    expect.objectContaining({ text: expect.stringContaining('sapphire') }),
  );

  const started = await replace(documentId, manual(5));
  expect(started.kind).toBe('started');
  if (started.kind !== 'started') return;
  expect(started.replaceOfTaskId).toBe(before?.last_task_id);
  expect((await waitForTask(tw.client, documentId, started.taskId)).status).toBe('SUCCESS');
  await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).result();

  // The document kept its id and now holds the new source; the task built the served set.
  const after = await findDocument(tw.adapters.db, documentId);
  const task = await getTask(tw.adapters.db, started.taskId);
  expect(after).toMatchObject({
    index_task_id: started.taskId,
    index_generation: task.chunk_generation,
    source_object_key: objectKeys.version(scope.userId, documentId, started.taskId),
  });
  expect(Number(after?.size_bytes)).toBe(Buffer.byteLength(manual(5)));
  expect(after?.index_generation).toBeGreaterThan(before?.index_generation ?? 0);
  expect(after?.content_sha256).not.toBe(before?.content_sha256);
  expect(await tw.adapters.objects.exists(before!.source_object_key)).toBe(false);
  expect(await tw.adapters.objects.exists(after!.source_object_key)).toBe(true);

  // Only the changed children were embedded: every unchanged text got copies of both vectors.
  const children = await servedChildren(documentId);
  const changed = children.filter((c) => !oldTexts.has(c.text));
  expect(changed.length).toBeGreaterThanOrEqual(1);
  expect(changed.length).toBeLessThanOrEqual(3);
  for (const c of children) {
    expect(c).toMatchObject({ dense_status: 'SUCCESS', language_dense_status: 'SUCCESS' });
    expect(c.vector_reused).toBe(oldTexts.has(c.text));
    expect(c.language_vector_reused).toBe(oldTexts.has(c.text));
  }
  // Every kind of vector is held once per served child, the windows of reused children included.
  expect(await count('dense_vectors', documentId)).toBe(children.length);
  expect(await count('language_dense_vectors', documentId)).toBe(children.length);
  // A reused child has as many windows as the child it copied: the same text, the same windows.
  const windowsAfter = await windowsByText(documentId);
  for (const c of children.filter((c) => oldTexts.has(c.text)))
    expect(windowsAfter.get(c.text)).toBe(windowsBefore.get(c.text));
  expect([...windowsAfter.values()].filter((n) => n > 0).length).toBeGreaterThanOrEqual(children.length - 1);

  const hits = await hybridSearch(tw.adapters, scope, 'sapphire valve winter', 3);
  expect(hits[0]).toMatchObject({ documentId, text: expect.stringContaining('sapphire valve') });
  const ids = new Set(children.map((c) => c.chunk_id));
  expect((await hybridSearch(tw.adapters, scope, 'copper7 hinge dusk', 10)).every((h) => ids.has(h.chunkId))).toBe(
    true,
  );

  // The same content again changes nothing.
  expect(await replace(documentId, manual(5))).toEqual({ kind: 'unchanged', documentId, taskId: started.taskId });
});

it('refuses a replacement of another type it cannot read, and one for a document that is not the caller’s', async () => {
  const { documentId } = await ingestBuffer(tw, manual(null), 'manual.md', scope);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).result();
  const refused = await replace(documentId, 'MZ\x90\x00\x03\x00\x00\x00binary', 'tool.exe');
  expect(refused).toMatchObject({ kind: 'refused', refusal: { code: 'UNSUPPORTED_FILE_TYPE' } });
  const other = await replaceDocumentContent(
    { db: tw.adapters.db, objects: tw.adapters.objects, client: tw.client, config: tw.config },
    { userId: 'someone-else' },
    documentId,
    { body: Readable.from([Buffer.from(manual(1))]) },
  );
  expect(other).toEqual({ kind: 'not-found' });
  // Nothing was stored beside the served source.
  const doc = await findDocument(tw.adapters.db, documentId);
  expect(doc?.last_task_id).toBe(doc?.index_task_id);
});

it('replaces a failed document: its run waiting for a retry is cancelled and the new content succeeds', async () => {
  const { documentId } = await ingestBuffer(tw, '   \n\n  ', 'empty.md', scope);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('FAILED');
  const started = await replace(documentId, manual(2), 'manual.md');
  expect(started.kind).toBe('started');
  if (started.kind !== 'started') return;
  expect((await waitForTask(tw.client, documentId, started.taskId)).status).toBe('SUCCESS');
  await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).result();
  expect(await findDocument(tw.adapters.db, documentId)).toMatchObject({ file_name: 'manual.md' });
  const hits = await hybridSearch(tw.adapters, scope, 'sapphire valve winter', 3);
  expect(hits.map((h) => h.documentId)).toContain(documentId);
});
