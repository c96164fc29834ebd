import type { Client } from '@temporalio/client';
import type { IngestProgress } from '../contracts/ingest';
import { queryProgress } from '../client/ingestClient';
import { createProgressView, renderProgressLine } from './progressView';

const POLL_MS = 300;

export function isTerminal(progress: IngestProgress | null): boolean {
  return progress !== null && (progress.status === 'SUCCESS' || progress.status === 'FAILED');
}

/** Polls the `progress` query of every document until each is SUCCESS or FAILED, drawing bars. */
export async function waitForDocuments(
  client: Client,
  documents: { documentId: string; label: string }[],
  options: { timeoutMs?: number; quiet?: boolean } = {},
): Promise<Map<string, IngestProgress>> {
  const view = createProgressView();
  const latest = new Map<string, IngestProgress | null>(documents.map((d) => [d.documentId, null]));
  const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
  for (;;) {
    await Promise.all(
      documents.map(async (d) => {
        if (isTerminal(latest.get(d.documentId) ?? null)) return;
        // A query fails until a worker has picked the run up: keep showing "waiting".
        latest.set(d.documentId, await queryProgress(client, d.documentId).catch(() => null));
      }),
    );
    if (!options.quiet)
      view.update(documents.map((d) => renderProgressLine(d.label, latest.get(d.documentId) ?? null)));
    if (documents.every((d) => isTerminal(latest.get(d.documentId) ?? null))) break;
    if (Date.now() > deadline) throw new Error('timed out waiting for documents to finish');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return new Map(documents.map((d) => [d.documentId, latest.get(d.documentId) as IngestProgress]));
}
