import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { SluiceConfig } from '../../config/config';
import type { Adapters } from '../../worker/adapters';
import { startIngestion } from '../ingestClient';
import { registerDocument } from '../registerDocument';
import { hasWorkerPolling } from '../workerPresence';
import { waitForDocuments } from '../waitForDocuments';

export interface IngestedFile {
  file: string;
  documentId: string;
  status: 'SUCCESS' | 'FAILED';
  failureCode: string | null;
  chunkCount: number;
}

/** Stores each file, starts one workflow per file and waits for all, drawing progress bars. */
export async function ingestFiles(
  config: Readonly<SluiceConfig>,
  adapters: Adapters,
  client: Client,
  files: string[],
  scope: { userId: string; datasetId: string },
): Promise<IngestedFile[]> {
  const started: { file: string; documentId: string; label: string }[] = [];
  for (const file of files) {
    const doc = await registerDocument(adapters, {
      ...scope,
      fileName: path.basename(file),
      body: createReadStream(file),
    });
    await startIngestion(client, config, { documentId: doc.id, ...scope });
    started.push({ file, documentId: doc.id, label: path.basename(file) });
  }
  if (!(await hasWorkerPolling(client, config.temporal.namespace, config.temporal.taskQueue))) {
    // The documents are stored and their runs wait durably; they start when a worker comes up.
    console.warn(`no worker polls ${config.temporal.taskQueue}: start one with \`sluice up\` (the runs wait until then)`);
  }
  const outcome = await waitForDocuments(client, started);
  return started.map((s) => {
    const progress = outcome.get(s.documentId);
    return {
      file: s.file,
      documentId: s.documentId,
      status: progress?.status === 'SUCCESS' ? 'SUCCESS' : 'FAILED',
      failureCode: progress?.failureCode ?? null,
      chunkCount: progress?.chunkCount ?? 0,
    };
  });
}
