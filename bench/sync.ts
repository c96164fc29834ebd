import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { addSource } from '../client/sources';
import { connectClient, startIngestion } from '../client/ingestClient';
import { createAdapters, type Adapters } from '../composition/adapters';
import { loadConfig } from '../config/config';
import { ingestWorkflowId } from '../contracts/ingest';
import { sourceScheduleId, type SyncReport } from '../contracts/sources';
import { findSource } from '../db/repositories/sources';
import { registerDocument } from '../testkit/harness/registerDocument';
import { objectKeys } from '../stores/objectKeys';
import { resetBenchDatabase } from './benchDatabase';
import { writeBenchResult } from './benchResults';
import { benchSettings, sluiceEnv } from './settings';
import { editOneParagraph, writeSyncCorpus } from './syncCorpus';
import { runWindow } from './window';
import { startWorkerProcess } from './workerProcesses';

/**
 * `npm run bench:sync`: a dataset following a folder of BENCH_SYNC_DOCS (1,000) real HTML pages of
 * pinned Debian manuals (bench/syncCorpus.ts), through one worker process (the hashing embedder,
 * so the embedder's own cost is not what is measured). Side by side in one run:
 * - the first sync, against a client loop that registers, starts and awaits the same files
 *   BENCH_SYNC_LANES (8) at a time, the sync's own SLUICE_SOURCE_SYNC_CONCURRENCY;
 * - a re-sync with nothing changed: its time against the first, and the parses and embeddings it did;
 * - 1 % of the pages with one paragraph edited: the chunks each edit embedded again;
 * - 1 % of the pages deleted: what is left of their documents in any store.
 * JSON in bench-results/sync.json.
 */
const DOCS = Number(process.env.BENCH_SYNC_DOCS ?? 1000);
const LANES = Number(process.env.BENCH_SYNC_LANES ?? 8);

/** Parses (tasks whose CLEANING succeeded) and chunks embedded, not copied, of a user's documents so far. */
async function work(adapters: Adapters, userId: string) {
  const { rows } = await sql<{ parses: number; embedded: number }>`
    SELECT (SELECT count(*) FROM parse_tasks t JOIN pipelines p USING (task_id) JOIN documents d ON d.id = t.document_id
             WHERE d.user_id = ${userId} AND p.cleaning_status = 'SUCCESS')::int AS parses,
           (SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id
             WHERE d.user_id = ${userId} AND c.kind = 'child' AND c.dense_status = 'SUCCESS'
               AND NOT c.vector_reused)::int AS embedded`.execute(adapters.db);
  return rows[0] as { parses: number; embedded: number };
}

/** The children each replaced document embedded for its served version (the rest were copied). */
async function embeddedByReplacement(adapters: Adapters, documentIds: string[]): Promise<number[]> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*) FILTER (WHERE NOT c.vector_reused)::int AS n FROM documents d
      JOIN chunks c ON c.document_id = d.id AND c.generation = d.index_generation AND c.kind = 'child'
     WHERE d.id = ANY(${documentIds}::text[]) AND d.index_generation > 0
     GROUP BY d.id`.execute(adapters.db);
  return rows.map((r) => r.n);
}

async function syncedReport(adapters: Adapters, sourceId: string, previous: string | null): Promise<SyncReport> {
  for (;;) {
    const row = await findSource(adapters.db, sourceId);
    if (row?.last_sync && row.last_sync.syncId !== previous) return row.last_sync;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Rows and objects any store still holds for the documents. */
async function leftovers(adapters: Adapters, userId: string, documentIds: string[]) {
  const count = async (table: string) =>
    (
      await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE document_id = ANY(${documentIds}::text[])`.execute(
        adapters.db,
      )
    ).rows[0]?.n ?? 0;
  const rows: Record<string, number> = {};
  for (const t of ['documents', 'chunks', 'dense_vectors', 'sparse_vectors', 'keyword_entries'])
    rows[t] = t === 'documents' ? await countDocuments(adapters, documentIds) : await count(t);
  let objects = 0;
  for (const id of documentIds) {
    for await (const page of adapters.objects.listOlderThan(
      objectKeys.documentPrefix(userId, id),
      new Date(Date.now() + 60_000),
    ))
      objects += page.length;
  }
  return { ...rows, objects };
}

async function countDocuments(adapters: Adapters, ids: string[]): Promise<number> {
  const row = await adapters.db
    .selectFrom('documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function main(): Promise<void> {
  const s = benchSettings();
  await resetBenchDatabase(s.databaseUrl);
  const folder = path.join(s.dataDir, 'source');
  const paths = writeSyncCorpus(loadConfig().dataDir, folder, DOCS);
  const env = {
    ...sluiceEnv(s),
    SLUICE_EMBEDDER: 'local',
    SLUICE_SOURCE_FOLDER_ROOTS: folder,
    SLUICE_SOURCE_SYNC_CONCURRENCY: String(LANES),
    SLUICE_USER_QUOTA_DOCUMENTS: '100000',
    SLUICE_USER_QUOTA_BYTES: String(100 * 1024 ** 3),
  };
  const config = loadConfig({ ...process.env, ...env });
  const adapters = createAdapters(config);
  const worker = await startWorkerProcess(env, path.join(s.dataDir, 'sync-worker.log'));
  const client = await connectClient(config);
  try {
    const loopScope = { userId: 'bench-loop', datasetId: 'manuals' };
    const loop = await runWindow(paths, LANES, async (p) => {
      const doc = await registerDocument(adapters, {
        ...loopScope,
        fileName: path.posix.basename(p),
        body: fs.createReadStream(path.join(folder, p)),
      });
      await startIngestion(client, config, { documentId: doc.id, ...loopScope });
      return (await client.workflow.getHandle(ingestWorkflowId(doc.id)).result()).status;
    });

    const scope = { userId: 'bench-sync', datasetId: 'manuals' };
    const source = await addSource({ client, db: adapters.db, config }, scope, {
      kind: 'folder',
      settings: { path: folder },
      schedule: { everySeconds: 86_400 },
    });
    const first = await syncedReport(adapters, source.id, null);
    const afterFirst = await work(adapters, scope.userId);

    const trigger = () => client.schedule.getHandle(sourceScheduleId(source.id)).trigger();
    await trigger();
    const resync = await syncedReport(adapters, source.id, first.syncId);
    const afterResync = await work(adapters, scope.userId);

    const step = Math.floor(paths.length / Math.max(1, Math.round(paths.length / 100)));
    const edited = paths
      .filter((_, i) => i % step === 3)
      .filter((p) => editOneParagraph(path.join(folder, p), 1_700_000_500));
    await trigger();
    const edit = await syncedReport(adapters, source.id, resync.syncId);
    const afterEdit = await work(adapters, scope.userId);

    const editedIds = (
      await adapters.db
        .selectFrom('source_entries')
        .select('document_id')
        .where('source_id', '=', source.id)
        .where('path', 'in', edited.length > 0 ? edited : [''])
        .execute()
    ).flatMap((r) => (r.document_id ? [r.document_id] : []));
    const perEdit = await embeddedByReplacement(adapters, editedIds);

    const doomed = paths.filter((_, i) => i % step === 7);
    const doomedIds = (
      await adapters.db
        .selectFrom('source_entries')
        .select('document_id')
        .where('source_id', '=', source.id)
        .where('path', 'in', doomed)
        .execute()
    ).flatMap((r) => (r.document_id ? [r.document_id] : []));
    for (const p of doomed) fs.rmSync(path.join(folder, p));
    await trigger();
    const deletion = await syncedReport(adapters, source.id, edit.syncId);
    for (let i = 0; i < 240 && (await countDocuments(adapters, doomedIds)) > 0; i++)
      await new Promise((r) => setTimeout(r, 500));

    writeBenchResult('sync.json', {
      bench: 'sync',
      at: new Date().toISOString(),
      documents: paths.length,
      lanes: LANES,
      uploadLoop: { ms: loop.elapsedMs, succeeded: loop.items.filter((i) => i.result === 'SUCCESS').length },
      firstSync: { ms: first.durationMs, report: first, ...afterFirst },
      resync: {
        ms: resync.durationMs,
        ofFirstSync: Math.round((resync.durationMs / first.durationMs) * 1000) / 1000,
        report: resync,
        parses: afterResync.parses - afterFirst.parses,
        embeddings: afterResync.embedded - afterFirst.embedded,
      },
      edit: {
        edited: edited.length,
        ms: edit.durationMs,
        report: edit,
        parses: afterEdit.parses - afterResync.parses,
        replaced: perEdit.length,
        chunksEmbedded: perEdit.reduce((a, b) => a + b, 0),
        chunksEmbeddedPerEdit: {
          mean: Math.round((perEdit.reduce((a, b) => a + b, 0) / Math.max(1, perEdit.length)) * 100) / 100,
          max: Math.max(0, ...perEdit),
          each: perEdit,
        },
      },
      deletion: {
        deleted: doomed.length,
        ms: deletion.durationMs,
        report: deletion,
        leftovers: await leftovers(adapters, scope.userId, doomedIds),
      },
      workerCpuSeconds: worker.stats().cpuSeconds,
    });
  } finally {
    await worker.stop();
    await client.connection.close();
    await adapters.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
