import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sourceScheduleId, type SyncReport } from '../../contracts/sources';
import { addSource, changeSource, InvalidSourceError, removeSource, type SourceDeps } from '../../client/sources';
import { findSource } from '../../db/repositories/sources';
import { hybridSearch } from '../../search/hybridSearch';
import { eventually } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// A folder source on the real stack (dev server, Postgres stores, the hashing embedder): a sync
// ingests the folder, a re-sync with nothing changed reads no file, an edit replaces the document
// in place re-embedding only its changed chunks, a rename keeps the document, a deletion removes
// it from every store, and a file that turns hostile is counted with its code while the rest syncs.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-sources-'));
const folder = path.join(root, 'manuals');
const scope = { userId: `user-${randomUUID()}`, datasetId: 'synced' };
let tw: TestWorker;
let deps: SourceDeps;

beforeAll(async () => {
  fs.mkdirSync(path.join(folder, 'guides'), { recursive: true });
  tw = await startTestWorker({ config: testConfig({ SLUICE_SOURCE_FOLDER_ROOTS: root }) });
  deps = { client: tw.client, db: tw.adapters.db, config: tw.config };
});
afterAll(async () => {
  await tw.shutdown();
  fs.rmSync(root, { recursive: true, force: true });
});

function manual(topic: string, edited = false): string {
  let text = `# ${topic} manual\n\n`;
  for (let i = 0; i < 6; i++) {
    text += `## ${topic} part ${i}\n\nThe ${topic} part ${i} explains the brass${i} gear and its ${topic}${i} spring. `;
    text += `It is oiled every ${i + 3} weeks.\n\n`;
    if (edited && i === 3) text += `A new note says the ${topic} cobalt latch must be locked.\n\n`;
  }
  return text;
}

const write = (name: string, content: string | Buffer, mtimeSeconds: number) => {
  const file = path.join(folder, name);
  fs.writeFileSync(file, content);
  fs.utimesSync(file, mtimeSeconds, mtimeSeconds);
};

/** Triggers a sync through the source's Schedule and waits for its report. */
async function sync(sourceId: string, previous: string | null): Promise<SyncReport> {
  await tw.client.schedule.getHandle(sourceScheduleId(sourceId)).trigger();
  const row = await eventually(
    () => findSource(tw.adapters.db, sourceId),
    (r) => r?.last_sync != null && r.last_sync.syncId !== previous,
    120_000,
    200,
  );
  return row!.last_sync!;
}

const documentsOf = (sourceId: string) =>
  tw.adapters.db
    .selectFrom('source_entries as e')
    .innerJoin('documents as d', 'd.id', 'e.document_id')
    .select(['e.path', 'd.id', 'd.lifecycle'])
    .where('e.source_id', '=', sourceId)
    .orderBy('e.path')
    .execute();

it('refuses a folder outside the allowed roots', async () => {
  await expect(
    addSource(deps, scope, { kind: 'folder', settings: { path: os.tmpdir() }, schedule: { everySeconds: 3600 } }),
  ).rejects.toBeInstanceOf(InvalidSourceError);
});

it('syncs a folder: adds, skips the unchanged, replaces in place, keeps a rename, deletes, counts the hostile', async () => {
  write('pump.md', manual('pump'), 1_700_000_000);
  write('guides/valve.md', manual('valve'), 1_700_000_000);
  write('guides/fan.md', manual('fan'), 1_700_000_000);
  // The first sync starts when the source is added (the Schedule triggers at once).
  const source = await addSource(deps, scope, {
    kind: 'folder',
    settings: { path: folder },
    schedule: { everySeconds: 3600 },
  });
  const first = await eventually(
    () => findSource(tw.adapters.db, source.id),
    (r) => r?.last_sync != null,
    120_000,
    200,
  );
  expect(first?.last_sync).toMatchObject({ listed: 3, added: 3, updated: 0, deleted: 0, failed: 0 });
  const docs = await documentsOf(source.id);
  expect(docs.map((d) => d.path)).toEqual(['guides/fan.md', 'guides/valve.md', 'pump.md']);
  expect((await hybridSearch(tw.adapters, scope, 'valve3 spring brass3', 3))[0]?.documentId).toBe(docs[1]?.id);

  // Nothing changed: nothing is read, parsed or embedded.
  const tasksBefore = await taskCount();
  const again = await sync(source.id, first!.last_sync!.syncId);
  expect(again).toMatchObject({ listed: 3, unchanged: 3, added: 0, updated: 0, deleted: 0, failed: 0 });
  expect(await taskCount()).toBe(tasksBefore);

  // One file edited, one renamed, one deleted, one hostile added.
  write('pump.md', manual('pump', true), 1_700_000_100);
  fs.renameSync(path.join(folder, 'guides/fan.md'), path.join(folder, 'fan-renamed.md'));
  fs.rmSync(path.join(folder, 'guides/valve.md'));
  write(
    'tool.md',
    Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(256)]),
    1_700_000_100,
  );
  const third = await sync(source.id, again.syncId);
  expect(third).toMatchObject({ listed: 3, added: 0, updated: 1, deleted: 1, failed: 1, unchanged: 1 });
  expect(third.failures).toEqual({ UNSUPPORTED_FILE_TYPE: 1 });

  const after = await documentsOf(source.id);
  const pump = after.find((d) => d.path === 'pump.md');
  // The same document holds the edited pump manual; only its changed chunks were embedded.
  expect(pump?.id).toBe(docs[2]?.id);
  const served = await tw.adapters.db
    .selectFrom('chunks as c')
    .innerJoin('documents as d', 'd.id', 'c.document_id')
    .select(['c.vector_reused'])
    .where('c.document_id', '=', pump!.id)
    .whereRef('c.generation', '=', 'd.index_generation')
    .where('c.kind', '=', 'child')
    .execute();
  const embedded = served.filter((c) => !c.vector_reused).length;
  expect(embedded).toBeGreaterThanOrEqual(1);
  expect(embedded).toBeLessThanOrEqual(3);
  expect((await hybridSearch(tw.adapters, scope, 'pump cobalt latch locked', 3))[0]?.documentId).toBe(pump?.id);
  // The renamed file kept its document (same content): no new document, nothing embedded.
  expect(after.find((d) => d.path === 'fan-renamed.md')?.id).toBe(docs[0]?.id);
  // The deleted file's document is gone from every store.
  const valveId = docs[1]!.id;
  await eventually(
    () => tw.adapters.db.selectFrom('documents').select('id').where('id', '=', valveId).executeTakeFirst(),
    (row) => row === undefined,
    60_000,
    200,
  );
  for (const table of ['chunks', 'dense_vectors', 'sparse_vectors', 'keyword_entries'] as const) {
    const left = await tw.adapters.db.selectFrom(table).select('chunk_id').where('document_id', '=', valveId).execute();
    expect(left).toEqual([]);
  }
  expect(await tw.adapters.objects.exists(`documents/${scope.userId}/${valveId}/source`)).toBe(false);

  // Removing the source with its documents leaves none of them.
  const removed = await removeSource(deps, (await findSource(tw.adapters.db, source.id))!, { keepDocuments: false });
  expect(removed.deleting).toBe(2);
  await eventually(
    () =>
      tw.adapters.db
        .selectFrom('documents')
        .select('id')
        .where('user_id', '=', scope.userId)
        .where('lifecycle', '=', 'ACTIVE')
        .execute(),
    (rows) => rows.length === 0,
    60_000,
    200,
  );
  expect(await findSource(tw.adapters.db, source.id)).toBeUndefined();
  // Its Schedule is gone: no sync starts again.
  await expect(tw.client.schedule.getHandle(sourceScheduleId(source.id)).describe()).rejects.toThrow(/not found/i);
});

it('follows a change of its settings and schedule: paths the new globs leave out are deleted', async () => {
  const other = fs.mkdtempSync(path.join(root, 'changed-'));
  fs.mkdirSync(path.join(other, 'keep'));
  fs.mkdirSync(path.join(other, 'drop'));
  fs.writeFileSync(path.join(other, 'keep/a.md'), manual('anchor'));
  fs.writeFileSync(path.join(other, 'drop/b.md'), manual('buoy'));
  const changeScope = { userId: `user-${randomUUID()}`, datasetId: 'changed' };
  const source = await addSource(deps, changeScope, {
    kind: 'folder',
    settings: { path: other },
    schedule: { everySeconds: 3600 },
  });
  const first = await eventually(
    () => findSource(tw.adapters.db, source.id),
    (r) => r?.last_sync != null,
    120_000,
    200,
  );
  expect(first?.last_sync).toMatchObject({ added: 2 });
  await expect(changeSource(deps, source, { settings: { path: os.tmpdir() } })).rejects.toBeInstanceOf(
    InvalidSourceError,
  );
  const changed = await changeSource(deps, source, {
    settings: { path: other, include: ['keep/**'] },
    schedule: { everySeconds: 7200 },
  });
  expect(changed).toMatchObject({ every_seconds: 7200, config: { path: other, include: ['keep/**'] } });
  const described = await tw.client.schedule.getHandle(sourceScheduleId(source.id)).describe();
  expect(described.spec.intervals?.[0]?.every).toBe(7_200_000);
  const second = await sync(source.id, first!.last_sync!.syncId);
  expect(second).toMatchObject({ listed: 1, unchanged: 1, deleted: 1 });
});

async function taskCount(): Promise<number> {
  const row = await tw.adapters.db
    .selectFrom('parse_tasks as t')
    .innerJoin('documents as d', 'd.id', 't.document_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('d.user_id', '=', scope.userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
