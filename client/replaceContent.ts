import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import { ingestWorkflowId } from '../contracts/ingest';
import type { Database, DocumentRow } from '../db/database';
import { usageOf } from '../db/repositories/documentCatalog';
import { findDocument } from '../db/repositories/documents';
import { findPipeline } from '../db/repositories/pipelines';
import { budgetOrRefusal, uploadLimitsOf, type UploadRefusal } from '../registration/registerUpload';
import { storeSource } from '../registration/storeSource';
import { objectKeys } from '../stores/objectKeys';
import type { ObjectStore } from '../stores/ports';
import { runOf, startIngestRun } from './startRun';

export interface ReplaceDeps {
  db: Kysely<Database>;
  objects: ObjectStore;
  client: Client;
  config: Readonly<SluiceConfig>;
}

export type ReplaceOutcome =
  /** A run takes over the document's latest task and ingests the new content as a new chunk set. */
  | { kind: 'started'; documentId: string; taskId: string; replaceOfTaskId: string; sizeBytes: number }
  /** The content is the one the document already serves: nothing is done. */
  | { kind: 'unchanged'; documentId: string; taskId: string }
  | { kind: 'not-found' }
  /** A run is working on the document (or it is being deleted): try again when it has finished. */
  | { kind: 'busy'; reason: string }
  | { kind: 'refused'; refusal: UploadRefusal };

/** How long a failed document's run, waiting for a retry, is given to close once cancelled. */
const CANCEL_WAIT_MS = 15_000;

/**
 * Replaces a document's content in place (docs/sources.md): the same document id, its new version
 * built as a new chunk set beside the served one and switched in the transaction of its last
 * stage's success, so search never sees both or neither; only chunks whose embedded text changed
 * are embedded again (every vector kind), and the replaced source is removed afterwards. The new
 * bytes are checked and stored like an upload's (type, size, the quota less the document's own
 * size) under the new task's id. The same path serves `PUT /v1/documents/{id}/content`,
 * `sluice ingest --replace` and a source's sync.
 */
export async function replaceDocumentContent(
  deps: ReplaceDeps,
  /** A dataset, when the caller names one: a document of another is answered as not found. */
  scope: { userId: string; datasetId?: string },
  documentId: string,
  file: { fileName?: string; body: Readable },
): Promise<ReplaceOutcome> {
  const doc = await findDocument(deps.db, documentId);
  // Another user's document is answered as one that does not exist.
  if (!doc || doc.user_id !== scope.userId) return { kind: 'not-found' };
  if (scope.datasetId !== undefined && doc.dataset_id !== scope.datasetId) return { kind: 'not-found' };
  const ready = await readyToReplace(deps, doc);
  if (ready.kind !== 'ready') return ready;
  const usage = await usageOf(deps.db, scope.userId);
  const budget = budgetOrRefusal(uploadLimitsOf(deps.config), {
    documents: usage.documents - 1,
    bytes: usage.bytes - Number(doc.size_bytes),
  });
  if ('code' in budget) return { kind: 'refused', refusal: budget };
  const taskId = randomUUID();
  const key = objectKeys.version(doc.user_id, doc.id, taskId);
  const removeObject = () => deps.objects.deletePrefix(key).then(() => undefined);
  const fileName = file.fileName ?? doc.file_name;
  const stored = await storeSource(deps.objects, key, { fileName, body: file.body }, budget, removeObject);
  if (stored.kind === 'refused') return stored;
  if (stored.meter.sha256 === doc.content_sha256 && ready.status === 'SUCCESS') {
    await removeObject();
    return { kind: 'unchanged', documentId, taskId: ready.taskId };
  }
  try {
    await startIngestRun(deps.client, deps.config, {
      ...runOf({ ...doc, file_name: fileName, size_bytes: String(stored.meter.bytes) }),
      taskId,
      replaceOfTaskId: ready.taskId,
      replacement: { sha256: stored.meter.sha256, sizeBytes: stored.meter.bytes, fileName },
    });
  } catch (error) {
    await removeObject();
    if (error instanceof WorkflowExecutionAlreadyStartedError)
      return { kind: 'busy', reason: `a run for document ${documentId} is open` };
    throw error;
  }
  return { kind: 'started', documentId, taskId, replaceOfTaskId: ready.taskId, sizeBytes: stored.meter.bytes };
}

type Readiness =
  | { kind: 'ready'; taskId: string; status: 'SUCCESS' | 'FAILED' }
  | { kind: 'busy'; reason: string }
  | { kind: 'not-found' };

/**
 * A document can be replaced when its latest task has finished. A failed one's run may still be
 * open, waiting for a retry that the new content makes moot: it is cancelled first.
 */
async function readyToReplace(deps: ReplaceDeps, doc: DocumentRow): Promise<Readiness> {
  if (doc.lifecycle !== 'ACTIVE') return { kind: 'busy', reason: `document ${doc.id} is being deleted` };
  const pipeline = doc.last_task_id ? await findPipeline(deps.db, doc.last_task_id) : undefined;
  const status = pipeline?.pipeline_status;
  if (!pipeline || (status !== 'SUCCESS' && status !== 'FAILED'))
    return { kind: 'busy', reason: `document ${doc.id} is still being ingested` };
  if (status === 'FAILED') await cancelWaitingRun(deps.client, doc.id);
  return { kind: 'ready', taskId: pipeline.task_id, status };
}

async function cancelWaitingRun(client: Client, documentId: string): Promise<void> {
  const handle = client.workflow.getHandle(ingestWorkflowId(documentId));
  try {
    const { status } = await handle.describe();
    if (status.name !== 'RUNNING') return;
    await handle.cancel();
    await client.connection.withDeadline(Date.now() + CANCEL_WAIT_MS, () => handle.result().catch(() => undefined));
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
  }
}
