import { createHash, randomUUID, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Client } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../../config/config';
import { SluiceError } from '../../contracts/sluiceError';
import type { PipelineStatus } from '../../contracts/stages';
import type { Database, DocumentRow } from '../../db/database';
import { deleteDocumentRow, usageOf } from '../../db/repositories/documentCatalog';
import { insertWithinQuota, type UploadInsert } from '../../db/repositories/documentUploads';
import { findPipeline } from '../../db/repositories/pipelines';
import { detectFileType } from '../../parsers/detectFileType';
import { objectKeys } from '../../stores/objectKeys';
import type { ObjectStore } from '../../stores/ports';
import { ApiError } from './errors';
import type { ApiMetrics } from './metrics';
import type { UploadResult } from './schemas';
import { firstTaskId, startFirstRun } from './workflows';

/**
 * One uploaded file, from the multipart stream to a started workflow. The bytes flow straight
 * into the object store while they are hashed and counted; nothing holds the whole file. The
 * type is decided on the first bytes, before anything is stored; the size limit stops the
 * stream the moment it is crossed.
 */

/** As many bytes as the CLEANING stage reads to detect the type, so both decide alike. */
export const HEAD_BYTES = 8192;

export interface UploadDeps {
  db: Kysely<Database>;
  objects: ObjectStore;
  client: Client;
  config: Readonly<SluiceConfig>;
  metrics: ApiMetrics;
  log: FastifyBaseLogger;
}

export interface Scope {
  userId: string;
  datasetId: string;
}

export interface FilePart {
  file: Readable;
  filename: string | undefined;
}

export type FileOutcome =
  | { ok: true; httpStatus: 200 | 202; result: UploadResult }
  | {
      ok: false;
      httpStatus: number;
      error: ApiError;
      /** True when the rest of the part was left unread: the request cannot go on. */
      unread: boolean;
    };

/** What one more file may still take: the smaller of the file size limit and the quota left. */
export interface UploadBudget {
  maxBytes: number;
  limitedBy: 'file' | 'quota';
}

class LimitExceeded extends Error {
  constructor(readonly budget: UploadBudget) {
    super('upload limit exceeded');
  }
}

/** The request body broke off (client went away, malformed multipart): the caller's fault, not ours. */
class UploadInterrupted extends Error {}

export function quotaExceeded(message: string): ApiError {
  return new ApiError(403, 'QUOTA_EXCEEDED', message);
}

function documentsUsedUp(config: Readonly<SluiceConfig>): ApiError {
  return quotaExceeded(`the per-user quota of ${config.quota.maxDocuments} documents is used up`);
}

function bytesLeftExceeded(bytesLeft: number): ApiError {
  return quotaExceeded(`the file exceeds what is left of the per-user quota (${bytesLeft} bytes)`);
}

/** The budget for the next file, or a QUOTA_EXCEEDED refusal when the user has nothing left. */
export function budgetFor(config: Readonly<SluiceConfig>, usage: { documents: number; bytes: number }): UploadBudget {
  if (usage.documents >= config.quota.maxDocuments) throw documentsUsedUp(config);
  const quotaLeft = config.quota.maxBytes - usage.bytes;
  if (quotaLeft <= 0) throw quotaExceeded(`the per-user quota of ${config.quota.maxBytes} bytes is used up`);
  return quotaLeft < config.maxFileBytes ? { maxBytes: quotaLeft, limitedBy: 'quota' } : { maxBytes: config.maxFileBytes, limitedBy: 'file' };
}

export async function currentBudget(deps: Pick<UploadDeps, 'db' | 'config'>, userId: string): Promise<UploadBudget> {
  return budgetFor(deps.config, await usageOf(deps.db, userId));
}

function limitError(budget: UploadBudget): ApiError {
  return budget.limitedBy === 'file'
    ? new ApiError(413, 'FILE_TOO_LARGE', `the file exceeds the upload limit of ${budget.maxBytes} bytes`)
    : bytesLeftExceeded(budget.maxBytes);
}

// Control (Cc) and format (Cf) characters, lone surrogates (Cs), line and paragraph separators:
// a bidi override or a zero-width character makes a name display as another (`invoice‮fdp.exe`
// reads as `invoiceexe.pdf`) wherever it is listed or logged.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;
const MAX_FILE_NAME_CODE_POINTS = 255;

export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(UNPRINTABLE, '').trim();
  // Cut by code point: a cut by UTF-16 unit can split a surrogate pair and leave half a character.
  let cut = '';
  let codePoints = 0;
  for (const ch of cleaned) {
    if (codePoints === MAX_FILE_NAME_CODE_POINTS) break;
    cut += ch;
    codePoints += 1;
  }
  return cut.trim() || 'upload';
}

/**
 * Reads until `size` bytes (or the end) are buffered, without switching the stream to flowing
 * mode. Returns every chunk read, which may overshoot `size`; the caller sends them on.
 */
async function readHead(stream: Readable, size: number): Promise<{ chunks: Buffer[]; head: Buffer; ended: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  for (;;) {
    if (length >= size) break;
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) {
      chunks.push(chunk);
      length += chunk.length;
      continue;
    }
    if (stream.readableEnded) break;
    if (stream.destroyed) throw stream.errored ?? new Error('upload stream closed early');
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: unknown) => {
        stream.off('readable', onReadable);
        stream.off('end', onReadable);
        stream.off('close', onReadable);
        stream.off('error', onError);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve();
      };
      const onReadable = () => settle();
      const onError = (error: unknown) => settle(error);
      stream.on('readable', onReadable);
      stream.on('end', onReadable);
      stream.on('close', onReadable);
      stream.on('error', onError);
    });
  }
  const all = Buffer.concat(chunks);
  return { chunks: [all], head: all.subarray(0, size), ended: stream.readableEnded };
}

/** Streams head + rest, hashing and counting, and fails the moment the budget is crossed. */
async function* meteredBody(first: Buffer[], rest: Readable | null, budget: UploadBudget, meter: { hash: Hash; bytes: number }) {
  const take = (chunk: Buffer) => {
    meter.bytes += chunk.length;
    if (meter.bytes > budget.maxBytes) throw new LimitExceeded(budget);
    meter.hash.update(chunk);
    return chunk;
  };
  for (const chunk of first) yield take(chunk);
  if (!rest) return;
  const chunks = rest[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await chunks.next();
      } catch (error) {
        finished = true;
        throw new UploadInterrupted(error instanceof Error ? error.message : String(error));
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield take(next.value as Buffer);
    }
  } finally {
    // Stopped early (over the limit, or the store failed): the part is abandoned unread.
    if (!finished) await chunks.return?.();
  }
}

function refuse(httpStatus: number, error: ApiError, unread: boolean): FileOutcome {
  return { ok: false, httpStatus, error, unread };
}

/** detectFileType's verdicts become refusals: the type ones 415, the content ones (empty, encrypted) 422. */
function refusalForType(error: unknown): ApiError | null {
  if (!(error instanceof SluiceError) || !error.permanent) return null;
  const status = error.code === 'UNSUPPORTED_FILE_TYPE' || error.code === 'INVALID_TEXT_ENCODING' ? 415 : 422;
  return new ApiError(status, error.code, error.message);
}

function resultOf(doc: DocumentRow, taskId: string | null, status: PipelineStatus, duplicate: boolean): UploadResult {
  return {
    documentId: doc.id,
    taskId,
    status,
    duplicate,
    fileName: doc.file_name,
    fileType: doc.file_type,
    sizeBytes: Number(doc.size_bytes),
    contentSha256: doc.content_sha256,
  };
}

async function existingDocumentResult(deps: UploadDeps, doc: DocumentRow): Promise<UploadResult> {
  if (!doc.last_task_id) {
    // Its first run may never have started (the API died between storing and starting):
    // starting it with the same derived task id is safe either way.
    const taskId = await startFirstRun(deps.client, deps.config, { documentId: doc.id, userId: doc.user_id, datasetId: doc.dataset_id });
    return resultOf(doc, taskId, 'PENDING', true);
  }
  const pipeline = await findPipeline(deps.db, doc.last_task_id);
  return resultOf(doc, doc.last_task_id, pipeline?.pipeline_status ?? 'PENDING', true);
}

/**
 * Stores one file part and starts its ingestion. Refusals (type, size, quota) are returned as
 * outcomes; infrastructure failures are thrown. A refused or failed file leaves no object and
 * no row behind.
 */
export async function receiveFile(deps: UploadDeps, scope: Scope, part: FilePart, budget: UploadBudget): Promise<FileOutcome> {
  const fileName = cleanFileName(part.filename);
  const { chunks, head, ended } = await readHead(part.file, HEAD_BYTES);

  let fileType: string;
  try {
    fileType = detectFileType(head, fileName);
  } catch (error) {
    const refusal = refusalForType(error);
    if (!refusal) throw error;
    deps.metrics.uploads.inc({ outcome: 'refused_type' });
    return refuse(refusal.statusCode, refusal, !ended);
  }

  const documentId = randomUUID();
  const key = objectKeys.source(scope.userId, documentId);
  const meter = { hash: createHash('sha256'), bytes: 0 };
  const removeObject = () =>
    deps.objects.deletePrefix(objectKeys.documentPrefix(scope.userId, documentId)).catch((error: unknown) => {
      deps.log.warn({ err: error, documentId }, 'could not remove the object of a refused upload');
      return 0;
    });
  try {
    await deps.objects.putStream(key, Readable.from(meteredBody(chunks, ended ? null : part.file, budget, meter), { objectMode: false }));
  } catch (error) {
    await removeObject();
    if (error instanceof LimitExceeded) {
      deps.metrics.uploads.inc({ outcome: budget.limitedBy === 'file' ? 'refused_size' : 'refused_quota' });
      const refusal = limitError(error.budget);
      return refuse(refusal.statusCode, refusal, true);
    }
    if (error instanceof UploadInterrupted) {
      deps.metrics.uploads.inc({ outcome: 'interrupted' });
      throw new ApiError(400, 'UPLOAD_INTERRUPTED', 'the upload ended before the file was complete');
    }
    throw error;
  }
  deps.metrics.uploadBytes.inc(meter.bytes);

  const contentSha256 = meter.hash.digest('hex');
  let inserted: UploadInsert;
  try {
    inserted = await insertWithinQuota(
      deps.db,
      {
        id: documentId,
        user_id: scope.userId,
        dataset_id: scope.datasetId,
        file_name: fileName,
        file_type: fileType,
        size_bytes: meter.bytes,
        content_sha256: contentSha256,
        source_object_key: key,
      },
      deps.config.quota,
    );
  } catch (error) {
    // No row, so nothing would ever reach the object: remove it now (the orphan sweep is the backstop).
    await removeObject();
    throw error;
  }
  if (inserted.outcome === 'over-quota') {
    // Concurrent uploads spent the quota while this one streamed; the whole part was read.
    await removeObject();
    deps.metrics.uploads.inc({ outcome: 'refused_quota' });
    const { usage } = inserted;
    const refusal = usage.documents >= deps.config.quota.maxDocuments ? documentsUsedUp(deps.config) : bytesLeftExceeded(Math.max(0, deps.config.quota.maxBytes - usage.bytes));
    return refuse(refusal.statusCode, refusal, false);
  }
  const { row } = inserted;
  if (inserted.outcome === 'duplicate') {
    await removeObject();
    deps.metrics.uploads.inc({ outcome: 'duplicate' });
    return { ok: true, httpStatus: 200, result: await existingDocumentResult(deps, row) };
  }

  try {
    await startFirstRun(deps.client, deps.config, { documentId, ...scope });
  } catch (error) {
    // Nothing half-done stays behind: without a workflow the document would never be processed.
    deps.log.error({ err: error, documentId }, 'could not start the ingestion workflow');
    await deleteDocumentRow(deps.db, documentId).catch(() => undefined);
    await removeObject();
    throw new ApiError(503, 'WORKFLOW_UNAVAILABLE', 'the upload could not be queued for ingestion; try again');
  }
  deps.metrics.uploads.inc({ outcome: 'accepted' });
  return { ok: true, httpStatus: 202, result: resultOf(row, firstTaskId(documentId), 'PENDING', false) };
}

/** Reads and discards a refused part so the next one can be parsed; false if it is over the cap. */
export async function discardPart(file: Readable, capBytes: number): Promise<boolean> {
  let bytes = 0;
  for await (const chunk of file) {
    bytes += (chunk as Buffer).length;
    if (bytes > capBytes) return false;
  }
  return true;
}
