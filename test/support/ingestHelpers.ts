import { Readable } from 'node:stream';
import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { startIngestion } from '../../client/ingestClient';
import { registerDocument } from '../../client/registerDocument';
import { waitForDocuments } from '../../client/waitForDocuments';
import { ingestWorkflowId, type IngestProgress } from '../../contracts/ingest';
import type { TestWorker } from './testWorker';

export async function ingestBuffer(
  tw: TestWorker,
  content: Buffer | string,
  fileName: string,
  scope: { userId: string; datasetId: string },
  taskId?: string,
): Promise<{ documentId: string; taskId: string }> {
  const doc = await registerDocument(tw.adapters, { ...scope, fileName, body: Readable.from([Buffer.from(content)]) });
  tw.track(doc.id);
  const started = await startIngestion(tw.client, tw.config, { documentId: doc.id, ...scope, taskId });
  return { documentId: doc.id, taskId: started.taskId };
}

export async function waitTerminal(client: Client, documentId: string, timeoutMs = 180_000): Promise<IngestProgress> {
  const outcome = await waitForDocuments(client, [{ documentId, label: documentId }], { quiet: true, timeoutMs });
  return outcome.get(documentId) as IngestProgress;
}

/** Encoded size of the document's workflow history: what the claim-check rule keeps flat. */
export async function historyBytes(client: Client, documentId: string): Promise<number> {
  const history = await client.workflow.getHandle(ingestWorkflowId(documentId)).fetchHistory();
  return temporal.api.history.v1.History.encode(history).finish().length;
}
