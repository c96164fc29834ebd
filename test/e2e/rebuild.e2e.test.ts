import { randomUUID } from 'node:crypto';
import { deleteDocument } from '../../client/documentAdmin';
import { rebuildDocument } from '../../client/rebuild';
import { ingestWorkflowId } from '../../contracts/ingest';
import { countChunks } from '../../db/repositories/chunks';
import { findDocument } from '../../db/repositories/documents';
import { getPipeline } from '../../db/repositories/pipelines';
import { getTask } from '../../db/repositories/tasks';
import { hybridSearch } from '../../search/hybridSearch';
import { ingestBuffer, waitForTask, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// Everything real (dev server, Postgres stores, the hashing embedder): a document is ingested,
// rebuilt under another plan from its stored markdown while a search loop runs, and the loop
// never sees the document without hits or with hits from both chunk sets.

const scope = { userId: `user-${randomUUID()}`, datasetId: 'rebuild' };
let tw: TestWorker;

beforeAll(async () => {
  tw = await startTestWorker({ config: testConfig() });
});
afterAll(() => tw.shutdown());

/** Short sections (one child each, the same under both plans) and one long one that splits differently. */
function markdown(): string {
  let text = '# Rebuild manual\n\n';
  for (let i = 0; i < 8; i++) text += `## Short ${i}\n\nThe topaz${i} lantern note ${i} stays the same.\n\n`;
  text += '## Long section\n\n';
  for (let i = 0; i < 120; i++) text += `Sentence ${i} of the long section talks about the amber${i % 7} bridge. `;
  return `${text}\n`;
}

const servedIds = async (documentId: string): Promise<Set<string>> => {
  const doc = await findDocument(tw.adapters.db, documentId);
  const rows = await tw.adapters.db
    .selectFrom('chunks')
    .select(['chunk_id', 'text'])
    .where('document_id', '=', documentId)
    .where('generation', '=', doc?.index_generation ?? -1)
    .where('kind', '=', 'child')
    .execute();
  return new Set(rows.map((r) => r.chunk_id));
};

const childTexts = async (documentId: string): Promise<string[]> =>
  (
    await tw.adapters.db
      .selectFrom('chunks')
      .select('text')
      .where('document_id', '=', documentId)
      .where('kind', '=', 'child')
      .execute()
  ).map((r) => r.text);

it('rebuilds under another plan without reading the source, reuses unchanged vectors, and switches search atomically', async () => {
  const { documentId, taskId: firstTask } = await ingestBuffer(tw, markdown(), 'manual.md', scope);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
  await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).result();
  const oldIds = await servedIds(documentId);
  const oldTexts = new Set(await childTexts(documentId));
  // The source is gone: a rebuild that downloaded or parsed it would fail SOURCE_FILE_NOT_FOUND.
  const doc = await findDocument(tw.adapters.db, documentId);
  await tw.adapters.objects.deletePrefix(doc!.source_object_key);

  // The loop: every answer must come from one chunk set, never none, never both.
  const seen: string[][] = [];
  let searching = true;
  const loop = (async () => {
    while (searching) {
      const hits = await hybridSearch(tw.adapters, scope, 'topaz3 lantern amber2 bridge', 10);
      seen.push(hits.filter((h) => h.documentId === documentId).map((h) => h.chunkId));
    }
  })();

  const plan = {
    strategy: 'general' as const,
    parameters: { childTokens: 120, overlapTokens: 20, parentTokens: null },
    reason: 'smaller children',
  };
  const started = await rebuildDocument(
    { client: tw.client, db: tw.adapters.db, config: tw.config },
    scope,
    documentId,
    plan,
  );
  expect(started.rebuildOfTaskId).toBe(firstTask);
  expect((await waitForTask(tw.client, documentId, started.taskId)).status).toBe('SUCCESS');
  // The run closes after retiring the old set.
  await tw.client.workflow.getHandle(ingestWorkflowId(documentId)).result();
  // A few more answers after the switch.
  const after = seen.length;
  while (seen.length < after + 5) await new Promise((r) => setTimeout(r, 20));
  searching = false;
  await loop;

  const newIds = await servedIds(documentId);
  expect([...newIds].some((id) => oldIds.has(id))).toBe(false);
  const fromOld = seen.filter((hits) => hits.length > 0 && hits.every((id) => oldIds.has(id)));
  const fromNew = seen.filter((hits) => hits.length > 0 && hits.every((id) => newIds.has(id)));
  // Never empty, never a mix of both sets (doubled), and both sides of the switch were seen.
  expect(seen.every((hits) => hits.length > 0)).toBe(true);
  expect(fromOld.length + fromNew.length).toBe(seen.length);
  expect(fromOld.length).toBeGreaterThan(0);
  expect(fromNew.length).toBeGreaterThan(0);
  expect(seen.every((hits) => new Set(hits).size === hits.length)).toBe(true);

  // Parse inherited, plan recorded, the document's index built by the rebuild task.
  const pipeline = await getPipeline(tw.adapters.db, started.taskId);
  expect(pipeline.cleaning_status).toBe('SUCCESS');
  const task = await getTask(tw.adapters.db, started.taskId);
  expect(task.markdown_object_key).toBe((await getTask(tw.adapters.db, firstTask)).markdown_object_key);
  expect(task.chunking_plan).toEqual(plan);
  const rebuilt = await findDocument(tw.adapters.db, documentId);
  expect(rebuilt).toMatchObject({ index_task_id: started.taskId, index_generation: task.chunk_generation });

  // Reuse by content hash: exactly the new children whose text an old child had got a copied vector.
  const newTexts = await childTexts(documentId);
  const unchanged = newTexts.filter((t) => oldTexts.has(t)).length;
  const counts = await countChunks(tw.adapters.db, documentId);
  expect(unchanged).toBeGreaterThanOrEqual(8);
  expect(counts.reused).toBe(unchanged);
  expect(counts.active - counts.reused).toBeGreaterThan(0);
  expect(counts).toMatchObject({ active: newIds.size, dense: newIds.size, sparse: newIds.size, keyword: newIds.size });

  // The old set is gone from every store: only the new one is left.
  const held = async (table: 'dense_vectors' | 'sparse_vectors' | 'keyword_entries' | 'chunks') =>
    new Set(
      (await tw.adapters.db.selectFrom(table).select('chunk_id').where('document_id', '=', documentId).execute()).map(
        (r) => r.chunk_id,
      ),
    );
  for (const table of ['dense_vectors', 'sparse_vectors', 'keyword_entries'] as const)
    expect(await held(table)).toEqual(newIds);
  const generations = await tw.adapters.db
    .selectFrom('chunks')
    .select('generation')
    .distinct()
    .where('document_id', '=', documentId)
    .execute();
  expect(generations.map((g) => g.generation)).toEqual([task.chunk_generation]);

  // Deletion after a rebuild still leaves nothing behind.
  await deleteDocument({ client: tw.client, config: tw.config }, { documentId, ...scope });
  for (const table of ['dense_vectors', 'sparse_vectors', 'keyword_entries', 'chunks'] as const)
    expect((await held(table)).size).toBe(0);
});
