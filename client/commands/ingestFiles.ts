import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { SluiceConfig } from '../../config/config';
import type { Adapters } from '../../worker/adapters';
import { startIngestion } from '../ingestClient';
import { registerDocument, SourceReadError } from '../registerDocument';
import { hasWorkerPolling } from '../workerPresence';
import { waitForDocuments } from '../waitForDocuments';

export interface IngestedFile {
  file: string;
  /** Null when the file could not be read: nothing was stored for it. */
  documentId: string | null;
  status: 'SUCCESS' | 'FAILED';
  failureCode: string | null;
  /** Why the file could not be read; null when it was stored. */
  error: string | null;
  chunkCount: number;
}

/** One line of the `ingest` command's summary. */
export function formatIngested(r: IngestedFile): string {
  const detail = r.error ?? r.failureCode;
  return `${r.status.padEnd(8)} ${r.documentId ?? '-'}  ${r.file}${detail ? `  ${detail}` : ''}`;
}

/**
 * Stores each file, starts one workflow per file and waits for all, drawing progress bars. A file
 * that cannot be read (missing, a directory, a read error mid-way) is reported FAILED with the
 * reason and the others go on; a failure of sluice's own services still stops the command.
 */
export async function ingestFiles(
  config: Readonly<SluiceConfig>,
  adapters: Adapters,
  client: Client,
  files: string[],
  scope: { userId: string; datasetId: string },
): Promise<IngestedFile[]> {
  // One entry per file, in the order given: a started document, or why the file was not stored.
  const entries: ({ file: string; documentId: string; label: string } | { file: string; error: string })[] = [];
  for (const file of files) {
    let documentId: string;
    try {
      ({ id: documentId } = await registerDocument(adapters, {
        ...scope,
        fileName: path.basename(file),
        body: createReadStream(file),
      }));
    } catch (error) {
      if (!(error instanceof SourceReadError)) throw error;
      entries.push({ file, error: error.message });
      continue;
    }
    await startIngestion(client, config, { documentId, ...scope });
    entries.push({ file, documentId, label: path.basename(file) });
  }
  const started = entries.filter((e) => 'documentId' in e);
  if (started.length > 0 && !(await hasWorkerPolling(client, config.temporal.namespace, config.temporal.taskQueue))) {
    // The documents are stored and their runs wait durably; they start when a worker comes up.
    console.warn(`no worker polls ${config.temporal.taskQueue}: start one with \`sluice up\` (the runs wait until then)`);
  }
  const outcome = await waitForDocuments(client, started);
  return entries.map((e): IngestedFile => {
    if ('error' in e) return { file: e.file, documentId: null, status: 'FAILED', failureCode: null, error: e.error, chunkCount: 0 };
    const progress = outcome.get(e.documentId);
    return {
      file: e.file,
      documentId: e.documentId,
      status: progress?.status === 'SUCCESS' ? 'SUCCESS' : 'FAILED',
      failureCode: progress?.failureCode ?? null,
      error: null,
      chunkCount: progress?.chunkCount ?? 0,
    };
  });
}
