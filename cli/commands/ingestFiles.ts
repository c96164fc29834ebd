import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { SluiceConfig } from '../../config/config';
import type { DocumentMetadata } from '../../contracts/documentMetadata';
import type { ChunkingChoice } from '../../contracts/chunkingPlan';
import type { Adapters } from '../../composition/adapters';
import { cleanFileName } from '../../registration/fileName';
import { registerFile, SourceReadError } from '../../registration/registerFile';
import { uploadLimitsOf } from '../../registration/registerUpload';
import { ensureFirstRun, runOf, startFirstRun } from '../../client/startRun';
import { hasWorkerPolling } from '../../client/workerPresence';
import { waitForDocuments } from '../waitForDocuments';

export interface IngestedFile {
  file: string;
  /** Null when the file could not be read or was refused: nothing was stored for it. */
  documentId: string | null;
  status: 'SUCCESS' | 'FAILED';
  failureCode: string | null;
  /** Why the file could not be read or was refused; null when it was stored. */
  error: string | null;
  /** The dataset already had this content: the result is that document's. */
  duplicate: boolean;
  chunkCount: number;
}

/** One line of the `ingest` command's summary. */
export function formatIngested(r: IngestedFile): string {
  const detail = r.error ?? r.failureCode ?? (r.duplicate ? 'the dataset already had this content' : null);
  return `${r.status.padEnd(8)} ${r.documentId ?? '-'}  ${r.file}${detail ? `  ${detail}` : ''}`;
}

/**
 * Stores each file the way an upload is stored (registration/: type from bytes, size limit,
 * dedupe within the dataset, quota), starts its first run and waits for all, drawing progress
 * bars; the scope's chunking choice, if any, is stored with each new document. A file that cannot be read (missing, a directory, a read error mid-way) or is refused
 * (type, size, quota) is reported FAILED with the reason and the others go on; content the dataset
 * already has is reported as that document; a failure of sluice's own services stops the command.
 */
export async function ingestFiles(
  config: Readonly<SluiceConfig>,
  adapters: Adapters,
  client: Client,
  files: string[],
  scope: { userId: string; datasetId: string; chunkingChoice?: ChunkingChoice; metadata?: DocumentMetadata },
): Promise<IngestedFile[]> {
  // One entry per file, in the order given: a started document, or why the file was not stored.
  const entries: (
    | { file: string; documentId: string; label: string; duplicate: boolean }
    | { file: string; error: string; failureCode: string | null }
  )[] = [];
  const deps = { db: adapters.db, objects: adapters.objects, limits: uploadLimitsOf(config) };
  for (const file of files) {
    const fileName = cleanFileName(path.basename(file));
    let registered;
    try {
      registered = await registerFile(deps, {
        documentId: randomUUID(),
        ...scope,
        fileName,
        body: createReadStream(file),
      });
    } catch (error) {
      if (!(error instanceof SourceReadError)) throw error;
      entries.push({ file, error: error.message, failureCode: null });
      continue;
    }
    if (registered.kind === 'refused') {
      entries.push({
        file,
        error: `${registered.refusal.code}: ${registered.refusal.message}`,
        failureCode: registered.refusal.code,
      });
      continue;
    }
    const { row } = registered;
    if (registered.kind === 'duplicate') await ensureFirstRun(client, config, row);
    else await startFirstRun(client, config, runOf(row));
    entries.push({ file, documentId: row.id, label: fileName, duplicate: registered.kind === 'duplicate' });
  }
  const started = entries.filter((e) => 'documentId' in e);
  if (started.length > 0 && !(await hasWorkerPolling(client, config.temporal.namespace, config.temporal.taskQueue))) {
    // The documents are stored and their runs wait durably; they start when a worker comes up.
    console.warn(
      `no worker polls ${config.temporal.taskQueue}: start one with \`sluice up\` (the runs wait until then)`,
    );
  }
  const outcome = await waitForDocuments(client, started);
  return entries.map((e): IngestedFile => {
    if ('error' in e)
      return {
        file: e.file,
        documentId: null,
        status: 'FAILED',
        failureCode: e.failureCode,
        error: e.error,
        chunkCount: 0,
        duplicate: false,
      };
    const progress = outcome.get(e.documentId);
    return {
      file: e.file,
      documentId: e.documentId,
      status: progress?.status === 'SUCCESS' ? 'SUCCESS' : 'FAILED',
      failureCode: progress?.failureCode ?? null,
      error: null,
      chunkCount: progress?.chunkCount ?? 0,
      duplicate: e.duplicate,
    };
  });
}
