import type { Client } from '@temporalio/client';
import type { IngestProgress } from '../contracts/ingest';
import { queryProgress } from '../client/ingestClient';
import { pendingStages, type PendingStage } from '../client/pendingStage';
import type { Stage } from '../contracts/stages';
import { createProgressView, renderProgressLine } from './progressView';

const POLL_MS = 300;
/** A describe per document is heavier than a query: the stages' own progress is asked for this often. */
const DESCRIBE_EVERY_MS = 2000;
/**
 * The stages that heartbeat how far they are: chunks done (activities/stages/pendingBatches.ts,
 * keywordIndexing.ts), and CLEANING the page its OCR reached (activities/heartbeat.ts).
 */
const COUNTED_STAGES: ReadonlySet<Stage> = new Set([
  'CLEANING',
  'VECTORIZING',
  'KEYWORD_INDEXING',
  'SPARSE_VECTORIZING',
]);

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
  const stages = new Map<string, PendingStage | null>();
  const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
  let describedAt = 0;
  for (;;) {
    const describe = !options.quiet && Date.now() - describedAt >= DESCRIBE_EVERY_MS;
    if (describe) describedAt = Date.now();
    await Promise.all(
      documents.map(async (d) => {
        if (isTerminal(latest.get(d.documentId) ?? null)) return;
        // A query fails until a worker has picked the run up: keep showing "waiting".
        const progress = await queryProgress(client, d.documentId).catch(() => null);
        latest.set(d.documentId, progress);
        if (!describe) return;
        const counted = progress?.currentStage != null && COUNTED_STAGES.has(progress.currentStage);
        const pending = counted ? await pendingStages(client, d.documentId).catch(() => []) : [];
        stages.set(d.documentId, pending[0] ?? null);
      }),
    );
    if (!options.quiet)
      view.update(
        documents.map((d) =>
          renderProgressLine(d.label, latest.get(d.documentId) ?? null, stages.get(d.documentId) ?? null),
        ),
      );
    if (documents.every((d) => isTerminal(latest.get(d.documentId) ?? null))) break;
    if (Date.now() > deadline) throw new Error('timed out waiting for documents to finish');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return new Map(documents.map((d) => [d.documentId, latest.get(d.documentId) as IngestProgress]));
}
