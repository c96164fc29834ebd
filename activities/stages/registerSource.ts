import { randomUUID } from 'node:crypto';
import type { ChunkingChoice } from '../../contracts/chunkingPlan';
import type { IngestSource } from '../../contracts/ingestSchema';
import { permanentError, transientError } from '../../contracts/sluiceError';
import type { DocumentRow } from '../../db/database';
import { usageOf } from '../../db/repositories/documentCatalog';
import { findDocument } from '../../db/repositories/documents';
import { callerKeyProblem } from '../../registration/callerObjectKey';
import { budgetOrRefusal, idTakenMessage, registerUpload, UploadInterrupted } from '../../registration/registerUpload';
import type { DocumentMetadata } from '../../contracts/documentMetadata';
import { objectKeys } from '../../stores/objectKeys';
import { ObjectNotFoundError } from '../../stores/ports';
import type { ActivityDeps } from '../deps';

export interface SourceToRegister {
  documentId: string;
  userId: string;
  datasetId: string;
  fileName: string;
  source: IngestSource;
  chunkingChoice?: ChunkingChoice;
  metadata?: DocumentMetadata;
}

/**
 * A run started from a named source: the file becomes a document exactly as an upload would
 * (registerUpload: type from bytes, size limit, dedupe within the dataset, quota under the
 * per-user lock). The bytes are copied to sluice's own key, so deletion, the orphan sweep and the
 * tenant prefix work as for any upload; the caller's object is left where it is, the caller's.
 * Idempotent: a document already registered under this id (an activity retry, a retry run) is
 * used as it is. Attempts may overlap (one still copying when the next starts): each copies to a
 * key of its own and the row keeps the first one registered (registerUpload). Returns the row the
 * run goes on with, or the other document of the dataset with the same content.
 */
export async function registerSource(
  deps: ActivityDeps,
  input: SourceToRegister,
): Promise<{ row: DocumentRow; duplicateOf: boolean }> {
  const existing = await findDocument(deps.db, input.documentId);
  if (existing) {
    if (existing.user_id !== input.userId || existing.dataset_id !== input.datasetId) {
      throw permanentError('INVALID_INGEST_INPUT', idTakenMessage(input.documentId));
    }
    return { row: existing, duplicateOf: false };
  }
  const key = sourceKey(input.source, deps.settings.objectBucket);
  const limits = { maxFileBytes: deps.settings.maxFileBytes, quota: deps.settings.quota };
  const budget = budgetOrRefusal(limits, await usageOf(deps.db, input.userId));
  if ('code' in budget) throw permanentError(budget.code, budget.message);

  let body;
  try {
    body = await deps.objects.getStream(key);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw permanentError('SOURCE_FILE_NOT_FOUND', `no object at ${key}`);
    throw error;
  }
  try {
    const registered = await registerUpload(
      { db: deps.db, objects: deps.objects, limits },
      { ...input, fileName: input.fileName, body, attemptId: randomUUID() },
      budget,
    );
    if (registered.kind === 'refused') throw permanentError(registered.refusal.code, registered.refusal.message);
    return { row: registered.row, duplicateOf: registered.kind === 'duplicate' };
  } catch (error) {
    if (error instanceof UploadInterrupted)
      throw transientError('SOURCE_FILE_NOT_FOUND', `reading ${key} broke off: ${error.message}`);
    throw error;
  } finally {
    body.destroy();
  }
}

/**
 * The key a source names, in the store sluice is configured with, checked by its shape
 * (registration/callerObjectKey.ts). Keys under `documents/` are sluice's own (another document's
 * source): refused, like an s3:// URI in another bucket.
 */
export function sourceKey(source: IngestSource, bucket: string | null): string {
  let key: string;
  if ('objectKey' in source) {
    key = source.objectKey;
  } else {
    const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(source.uri);
    if (!match?.[1] || !match[2])
      throw permanentError('INVALID_INGEST_INPUT', 'source.uri must look like s3://<bucket>/<key>');
    if (bucket === null)
      throw permanentError(
        'INVALID_INGEST_INPUT',
        'source.uri needs the S3 object store; this deployment stores objects locally (use source.objectKey)',
      );
    if (match[1] !== bucket)
      throw permanentError('INVALID_INGEST_INPUT', `source.uri must be in the configured bucket ${bucket}`);
    key = match[2];
  }
  const problem = callerKeyProblem(key, objectKeys.allDocuments);
  if (problem !== null) throw permanentError('INVALID_INGEST_INPUT', `source key refused: ${problem}`);
  return key;
}
