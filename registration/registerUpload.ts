import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import type { ChunkingChoice } from '../contracts/chunkingPlan';
import type { DocumentMetadata } from '../contracts/documentMetadata';
import { permanentError } from '../contracts/sluiceError';
import type { Database, DocumentRow } from '../db/database';
import {
  insertWithinQuota,
  isSourceOfDocument,
  type UploadInsert,
  type UserQuota,
} from '../db/repositories/documentUploads';
import { objectKeys } from '../stores/objectKeys';
import type { ObjectStore } from '../stores/ports';
import { bytesLeftExceeded, storeSource } from './storeSource';
import type { UploadRefusal } from './uploadRefusal';
import { UploadInterrupted, type UploadBudget } from './streams';

/**
 * The one way a file becomes a document, whoever brings it: the API's upload, a workflow started
 * from a named source (prepareTask). The type is decided on the first bytes, before anything is
 * stored; the bytes flow into the object store while they are hashed and counted, and the size
 * limit stops the stream the moment it is crossed; the row goes in under the per-user quota lock,
 * deduplicated by content within the user's dataset. Nothing holds the whole file.
 */

export interface UploadLimits {
  maxFileBytes: number;
  quota: UserQuota;
}

export function uploadLimitsOf(config: Readonly<SluiceConfig>): UploadLimits {
  return { maxFileBytes: config.maxFileBytes, quota: config.quota };
}

export type UploadRegistration =
  /** The document under this id: inserted by this call, or by an overlapping attempt of the same registration. */
  | { kind: 'inserted'; row: DocumentRow; bytes: number }
  /** The dataset already has this content: that document; nothing new was stored. */
  | { kind: 'duplicate'; row: DocumentRow; bytes: number }
  | { kind: 'refused'; refusal: UploadRefusal };

export interface UploadFile {
  documentId: string;
  userId: string;
  datasetId: string;
  /** Already cleaned (cleanFileName): it is shown and listed, never used in a key. */
  fileName: string;
  body: Readable;
  /**
   * Set when attempts of this registration may overlap (a run from a named source): the copy goes
   * to this attempt's own key, so no attempt ever writes or removes an object another one stored.
   */
  attemptId?: string;
  /** The document's own chunking choice (contracts/datasetSettings.ts chunkingChoiceSchema, already validated). */
  chunkingChoice?: ChunkingChoice;
  /** The document's metadata (contracts/documentMetadata.ts, already validated). */
  metadata?: DocumentMetadata;
  /** The synced source that keeps the document (documents.source); absent: an upload. */
  sourceId?: string;
  /**
   * An e-mail's attachment: registered even when the dataset holds the same bytes, because it
   * follows its message (deleted with it), which a document it were deduplicated to would not.
   */
  attachment?: true;
}

function documentsUsedUp(limits: UploadLimits): string {
  return `the per-user quota of ${limits.quota.maxDocuments} documents is used up`;
}

/** The budget for the next file, or the quota refusal when the user has nothing left. */
export function budgetOrRefusal(
  limits: UploadLimits,
  usage: { documents: number; bytes: number },
): UploadBudget | UploadRefusal {
  const quota = (message: string): UploadRefusal => ({
    code: 'QUOTA_EXCEEDED',
    message,
    reason: 'quota',
    unread: true,
  });
  if (usage.documents >= limits.quota.maxDocuments) return quota(documentsUsedUp(limits));
  const quotaLeft = limits.quota.maxBytes - usage.bytes;
  if (quotaLeft <= 0) return quota(`the per-user quota of ${limits.quota.maxBytes} bytes is used up`);
  return quotaLeft < limits.maxFileBytes
    ? { maxBytes: quotaLeft, limitedBy: 'quota' }
    : { maxBytes: limits.maxFileBytes, limitedBy: 'file' };
}

/**
 * Stores the file and records its row. Refusals (type, size, quota) are returned; infrastructure
 * failures and a broken body (UploadInterrupted) are thrown. Whatever is refused or fails leaves
 * no object and no row behind; `onCleanupError` hears of an object that could not be removed
 * (the orphan sweep is the backstop).
 */
export async function registerUpload(
  deps: { db: Kysely<Database>; objects: ObjectStore; limits: UploadLimits; onCleanupError?: (error: unknown) => void },
  file: UploadFile,
  budget: UploadBudget,
): Promise<UploadRegistration> {
  const key =
    file.attemptId === undefined
      ? objectKeys.source(file.userId, file.documentId)
      : objectKeys.sourceOfAttempt(file.userId, file.documentId, file.attemptId);
  // Only the key this call wrote, and only while no row names it: a caller-chosen id never
  // reaches another document's objects, and a registered document never loses its source.
  const removeObject = async () => {
    try {
      if (!(await isSourceOfDocument(deps.db, file.documentId, key))) await deps.objects.deletePrefix(key);
    } catch (error) {
      deps.onCleanupError?.(error);
    }
  };
  const stored = await storeSource(deps.objects, key, file, budget, removeObject);
  if (stored.kind === 'refused') return stored;
  const { fileType, meter } = stored;

  let inserted: UploadInsert;
  try {
    inserted = await insertWithinQuota(
      deps.db,
      {
        id: file.documentId,
        user_id: file.userId,
        dataset_id: file.datasetId,
        file_name: file.fileName,
        file_type: fileType,
        size_bytes: meter.bytes,
        content_sha256: meter.sha256,
        source_object_key: key,
        chunking_choice: file.chunkingChoice ? JSON.stringify(file.chunkingChoice) : null,
        metadata: JSON.stringify(file.metadata ?? {}),
        ...(file.sourceId !== undefined ? { source: file.sourceId } : {}),
      },
      deps.limits.quota,
      file.attachment !== true,
    );
  } catch (error) {
    await removeObject();
    throw error;
  }
  if (inserted.outcome === 'over-quota') {
    // Concurrent uploads spent the quota while this one streamed; the whole body was read.
    await removeObject();
    const { usage } = inserted;
    const message =
      usage.documents >= deps.limits.quota.maxDocuments
        ? documentsUsedUp(deps.limits)
        : bytesLeftExceeded(Math.max(0, deps.limits.quota.maxBytes - usage.bytes));
    return { kind: 'refused', refusal: { code: 'QUOTA_EXCEEDED', message, reason: 'quota', unread: false } };
  }
  if (inserted.outcome === 'duplicate') {
    await removeObject();
    return { kind: 'duplicate', row: inserted.row, bytes: meter.bytes };
  }
  if (inserted.outcome === 'registered') {
    // An overlapping attempt registered this document first: its copy is the source; ours goes.
    if (inserted.row.source_object_key !== key) await removeObject();
    return { kind: 'inserted', row: inserted.row, bytes: Number(inserted.row.size_bytes) };
  }
  if (inserted.outcome === 'id-taken') {
    await removeObject();
    throw permanentError('INVALID_INGEST_INPUT', idTakenMessage(file.documentId));
  }
  return { kind: 'inserted', row: inserted.row, bytes: meter.bytes };
}

/** The same words whoever owns the id, so the answer tells nothing about another user's documents. */
export function idTakenMessage(documentId: string): string {
  return `document id ${documentId} cannot be registered in this user's dataset`;
}

export { UploadInterrupted, type UploadBudget, type UploadRefusal };
