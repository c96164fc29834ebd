import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FetchedEntry } from '../../contracts/sources';
import type { DocumentMetadata } from '../../contracts/documentMetadata';
import { permanentError } from '../../contracts/sluiceError';
import type { DocumentRow } from '../../db/database';
import { usageOf } from '../../db/repositories/documentCatalog';
import { findDocument } from '../../db/repositories/documents';
import { MetadataInvalid, patchDocumentMetadata } from '../../db/repositories/documentFields';
import { findPipeline } from '../../db/repositories/pipelines';
import { ledgerEntries, saveEntry } from '../../db/repositories/sourceEntries';
import { findSource, type SourceRow } from '../../db/repositories/sources';
import { budgetOrRefusal, registerUpload } from '../../registration/registerUpload';
import { storeSource } from '../../registration/storeSource';
import { objectKeys } from '../../stores/objectKeys';
import type { ActivityDeps } from '../deps';
import type { ListedEntry } from './diffSourcePage';
import { readingSource } from './sourceErrors';
import { sourceMetadata } from './sourceMetadata';

/** A UUID derived from the text: the same sync and path give the same ids on every attempt. */
function uuidOf(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  const variant = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type Deps = Pick<ActivityDeps, 'db' | 'objects' | 'sources' | 'runs' | 'settings'>;

async function budget(deps: Deps, userId: string, freed: number) {
  const usage = await usageOf(deps.db, userId);
  const limits = { maxFileBytes: deps.settings.maxFileBytes, quota: deps.settings.quota };
  return budgetOrRefusal(limits, { documents: usage.documents - (freed > 0 ? 1 : 0), bytes: usage.bytes - freed });
}

/**
 * Reads one new or moved file of a source (docs/sources.md) and says what the sync does with it.
 * A path the ledger holds a document for: the bytes are stored as that document's next version
 * (client/replaceContent.ts's path; unchanged bytes end here). A new path: registered as an
 * upload would be, its source path and time as metadata. A refused file (type, size, quota) is
 * recorded in the ledger with its code and not read again until it changes. The ledger of a file
 * that starts a run is written by the workflow once the run has started (commitSourceEntry).
 */
export async function fetchSourceEntry(
  deps: Deps,
  input: { sourceId: string; syncId: string; entry: ListedEntry },
): Promise<FetchedEntry> {
  const row = await findSource(deps.db, input.sourceId);
  if (!row) throw permanentError('SOURCE_UNAVAILABLE', `source ${input.sourceId} was removed`);
  const { entry } = input;
  const [known] = await ledgerEntries(deps.db, row.id, [entry.path]);
  const doc = known?.document_id ? await findDocument(deps.db, known.document_id) : undefined;
  const held = doc && doc.lifecycle === 'ACTIVE' && doc.user_id === row.user_id ? doc : undefined;
  const record = (documentId: string | null, sha: string | null, failureCode: string | null) =>
    saveEntry(deps.db, {
      sourceId: row.id,
      path: entry.path,
      documentId,
      etag: entry.etag,
      mtime: entry.mtime === null ? null : new Date(entry.mtime),
      sizeBytes: entry.sizeBytes,
      contentSha256: sha,
      failureCode,
      syncId: input.syncId,
    });
  const reader = deps.sources.readerOf(row);
  const own = reader.metadataOf ? await readingSource(() => reader.metadataOf!(entry.path)) : {};
  const metadata = sourceMetadata(entry.path, entry.mtime, own);
  const body = await readingSource(async () => reader.open(entry.path));
  const fileName = path.posix.basename(entry.path);
  if (held) return replaceHeld(deps, row, held, input, { fileName, body, metadata }, record);

  const documentId = uuidOf(`${row.id}\n${input.syncId}\n${entry.path}`);
  const room = await budget(deps, row.user_id, 0);
  if ('code' in room) return record(null, null, room.code).then(() => ({ kind: 'failed', code: room.code }));
  const registered = await registerUpload(
    {
      db: deps.db,
      objects: deps.objects,
      limits: { maxFileBytes: deps.settings.maxFileBytes, quota: deps.settings.quota },
    },
    {
      documentId,
      userId: row.user_id,
      datasetId: row.dataset_id,
      fileName,
      body,
      attemptId: input.syncId,
      sourceId: row.id,
      metadata,
    },
    room,
  );
  if (registered.kind === 'refused') {
    const { code } = registered.refusal;
    return record(null, null, code).then(() => ({ kind: 'failed', code }));
  }
  // The same content is already a document of the dataset (a renamed or copied file): the path holds it.
  if (registered.kind === 'duplicate' && registered.row.last_task_id !== null) {
    await record(registered.row.id, registered.row.content_sha256, null);
    return { kind: 'unchanged' };
  }
  return { kind: 'ingest', documentId: registered.row.id, taskId: uuidOf(`${registered.row.id}\nfirst`) };
}

async function replaceHeld(
  deps: Deps,
  row: SourceRow,
  doc: DocumentRow,
  input: { syncId: string; entry: ListedEntry },
  file: { fileName: string; body: Readable; metadata: DocumentMetadata },
  record: (documentId: string | null, sha: string | null, failureCode: string | null) => Promise<void>,
): Promise<FetchedEntry> {
  const pipeline = doc.last_task_id ? await findPipeline(deps.db, doc.last_task_id) : undefined;
  const status = pipeline?.pipeline_status;
  if (!pipeline || (status !== 'SUCCESS' && status !== 'FAILED')) return { kind: 'failed', code: 'DOCUMENT_BUSY' };
  const room = await budget(deps, row.user_id, Number(doc.size_bytes));
  if ('code' in room) return record(doc.id, null, room.code).then(() => ({ kind: 'failed', code: room.code }));
  const taskId = uuidOf(`${doc.id}\n${input.syncId}\nreplace`);
  const key = objectKeys.version(doc.user_id, doc.id, taskId);
  const remove = () => deps.objects.deletePrefix(key).then(() => undefined);
  const stored = await storeSource(deps.objects, key, { fileName: file.fileName, body: file.body }, room, remove);
  if (stored.kind === 'refused') {
    const { code } = stored.refusal;
    return record(doc.id, doc.content_sha256, code).then(() => ({ kind: 'failed', code }));
  }
  if (stored.meter.sha256 === doc.content_sha256 && status === 'SUCCESS') {
    await remove();
    await record(doc.id, doc.content_sha256, null);
    return { kind: 'unchanged' };
  }
  // A failed version's run waits for a retry that the new content makes moot.
  if (status === 'FAILED') await deps.runs.cancelAndWait(doc.id, () => undefined);
  // What the source says of the file now; the run's stages copy it, under its new version, to the
  // stores that filter on a copy. Metadata that would pass its bounds keeps what it had.
  await patchDocumentMetadata(deps.db, { userId: doc.user_id }, doc.id, file.metadata).catch((error: unknown) => {
    if (!(error instanceof MetadataInvalid)) throw error;
  });
  return {
    kind: 'replace',
    documentId: doc.id,
    taskId,
    replaceOfTaskId: pipeline.task_id,
    replacement: { sha256: stored.meter.sha256, sizeBytes: stored.meter.bytes, fileName: file.fileName },
  };
}
