import { Readable } from 'node:stream';
import { temporal } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { queryProgress, startIngestion } from '../../client/ingestClient';
import { registerDocument } from './registerDocument';
import { waitForDocuments } from '../../cli/waitForDocuments';
import { ingestWorkflowId, type IngestProgress } from '../../contracts/ingest';
import type { TestWorker } from './testWorker';

export async function ingestBuffer(
  tw: TestWorker,
  content: Buffer | string,
  fileName: string,
  scope: { userId: string; datasetId: string },
  options: { taskId?: string; beforeStart?: (documentId: string) => void } = {},
): Promise<{ documentId: string; taskId: string }> {
  const doc = await registerDocument(tw.adapters, { ...scope, fileName, body: Readable.from([Buffer.from(content)]) });
  tw.track(doc.id);
  options.beforeStart?.(doc.id);
  const started = await startIngestion(tw.client, tw.config, { documentId: doc.id, ...scope, taskId: options.taskId });
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

/** Waits until the document's current run is the given task and has reached a terminal state. */
export async function waitForTask(
  client: Client,
  documentId: string,
  taskId: string,
  timeoutMs = 180_000,
): Promise<IngestProgress> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = await queryProgress(client, documentId).catch(() => null);
    if (progress?.taskId === taskId && (progress.status === 'SUCCESS' || progress.status === 'FAILED')) return progress;
    if (Date.now() > deadline)
      throw new Error(`task ${taskId} did not finish in time (last: ${JSON.stringify(progress)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Polls until `check` holds; for conditions on rows that a running pipeline writes. */
export async function eventually<T>(
  probe: () => Promise<T>,
  check: (value: T) => boolean,
  timeoutMs = 60_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not reached in ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A markdown document of `sections` small sections: one child chunk each. */
export function sectionedMarkdown(sections: number, tag = 'part'): string {
  let text = `# Document ${tag}\n\n`;
  for (let i = 0; i < sections; i++) {
    text += `## ${tag} section ${i}\n\nThe ${tag} paragraph number ${i} mentions token${i} and ends here.\n\n`;
  }
  return text;
}
