import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Client } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { SluiceConfig } from '../config/config';
import type { ChunkingChoice } from '../contracts/chunkingPlan';
import type { DocumentMetadata } from '../contracts/documentMetadata';
import type { PipelineStatus } from '../contracts/stages';
import type { Database, DocumentRow } from '../db/database';
import { deleteDocumentRow, usageOf } from '../db/repositories/documentCatalog';
import { findPipeline } from '../db/repositories/pipelines';
import {
  budgetOrRefusal,
  registerUpload,
  uploadLimitsOf,
  UploadInterrupted,
  type UploadBudget,
  type UploadRefusal,
  type UploadRegistration,
} from '../registration/registerUpload';
import { cleanFileName } from '../registration/fileName';
import { objectKeys } from '../stores/objectKeys';
import type { ObjectStore } from '../stores/ports';
import { ApiError } from './errors';
import type { ApiMetrics } from './metrics';
import type { UploadResult } from './schemas';
import { ensureFirstRun, runOf, startFirstRun } from '../client/startRun';

/**
 * One uploaded file, from the multipart stream to a started workflow. Storing and recording it
 * (type, limits, dedupe, quota) is registerUpload's, shared with runs started from a named source;
 * this adds what HTTP needs: statuses, metrics, and starting the first run.
 */

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
  /** The upload's own chunking choice (checked against the dataset settings' bounds); stored with the row. */
  chunkingChoice?: ChunkingChoice;
  /** The document's metadata (contracts/documentMetadata.ts, already validated); stored with the row. */
  metadata?: DocumentMetadata;
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

export function quotaExceeded(message: string): ApiError {
  return new ApiError(403, 'QUOTA_EXCEEDED', message);
}

/** The budget for the next file, or a QUOTA_EXCEEDED refusal when the user has nothing left. */
export function budgetFor(config: Readonly<SluiceConfig>, usage: { documents: number; bytes: number }): UploadBudget {
  const budget = budgetOrRefusal(uploadLimitsOf(config), usage);
  if ('code' in budget) throw quotaExceeded(budget.message);
  return budget;
}

export async function currentBudget(deps: Pick<UploadDeps, 'db' | 'config'>, userId: string): Promise<UploadBudget> {
  return budgetFor(deps.config, await usageOf(deps.db, userId));
}

function refuse(httpStatus: number, error: ApiError, unread: boolean): FileOutcome {
  return { ok: false, httpStatus, error, unread };
}

/** The HTTP status of a refusal: the type ones 415, the content ones (empty, encrypted) 422. */
export function statusOfRefusal(refusal: UploadRefusal): number {
  if (refusal.reason === 'size') return 413;
  if (refusal.reason === 'quota') return 403;
  return refusal.code === 'UNSUPPORTED_FILE_TYPE' ||
    refusal.code === 'LEGACY_OFFICE_FORMAT' ||
    refusal.code === 'INVALID_TEXT_ENCODING'
    ? 415
    : 422;
}

const REFUSED_OUTCOME = { type: 'refused_type', size: 'refused_size', quota: 'refused_quota' } as const;

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
  const { taskId, started } = await ensureFirstRun(deps.client, deps.config, doc);
  if (started) return resultOf(doc, taskId, 'PENDING', true);
  const pipeline = await findPipeline(deps.db, taskId);
  return resultOf(doc, taskId, pipeline?.pipeline_status ?? 'PENDING', true);
}

/**
 * Stores one file part and starts its ingestion. Refusals (type, size, quota) are returned as
 * outcomes; infrastructure failures are thrown. A refused or failed file leaves no object and
 * no row behind.
 */
export async function receiveFile(
  deps: UploadDeps,
  scope: Scope,
  part: FilePart,
  budget: UploadBudget,
): Promise<FileOutcome> {
  const documentId = randomUUID();
  let registered: UploadRegistration;
  try {
    registered = await registerUpload(
      {
        db: deps.db,
        objects: deps.objects,
        limits: uploadLimitsOf(deps.config),
        onCleanupError: (error) =>
          deps.log.warn({ err: error, documentId }, 'could not remove the object of a refused upload'),
      },
      { documentId, ...scope, fileName: cleanFileName(part.filename), body: part.file },
      budget,
    );
  } catch (error) {
    if (!(error instanceof UploadInterrupted)) throw error;
    deps.metrics.uploads.inc({ outcome: 'interrupted' });
    throw new ApiError(400, 'UPLOAD_INTERRUPTED', 'the upload ended before the file was complete');
  }
  if (registered.kind === 'refused') {
    const { refusal } = registered;
    deps.metrics.uploads.inc({ outcome: REFUSED_OUTCOME[refusal.reason] });
    const status = statusOfRefusal(refusal);
    return refuse(status, new ApiError(status, refusal.code, refusal.message), refusal.unread);
  }
  deps.metrics.uploadBytes.inc(registered.bytes);
  const { row } = registered;
  if (registered.kind === 'duplicate') {
    deps.metrics.uploads.inc({ outcome: 'duplicate' });
    return { ok: true, httpStatus: 200, result: await existingDocumentResult(deps, row) };
  }

  let taskId: string;
  try {
    taskId = await startFirstRun(deps.client, deps.config, runOf(row));
  } catch (error) {
    // Nothing half-done stays behind: without a workflow the document would never be processed.
    deps.log.error({ err: error, documentId }, 'could not start the ingestion workflow');
    await deleteDocumentRow(deps.db, documentId).catch(() => undefined);
    await deps.objects.deletePrefix(objectKeys.documentPrefix(scope.userId, documentId)).catch(() => 0);
    throw new ApiError(503, 'WORKFLOW_UNAVAILABLE', 'the upload could not be queued for ingestion; try again');
  }
  deps.metrics.uploads.inc({ outcome: 'accepted' });
  return { ok: true, httpStatus: 202, result: resultOf(row, taskId, 'PENDING', false) };
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
