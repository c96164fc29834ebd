import { reportProgress, resumePoint } from '../heartbeat';

export interface PendingBatches<C extends { chunk_index: number }> {
  /** Chunks read per query; a page shorter than this was the last one. */
  pageSize: number;
  /** Chunks handed to `work` at a time (≤ pageSize). */
  batchSize: number;
  /** The next page of pending chunks after `afterIndex`, in chunk_index order. */
  readPage: (afterIndex: number, limit: number) => Promise<C[]>;
}

/**
 * The batch loop of VECTORIZING and SPARSE_VECTORIZING: page through the document's pending
 * chunks from the attempt's resume point, one batch at a time. `work` writes and marks its batch
 * and returns how many items it wrote; only then does the resume point pass the batch and get
 * reported (heartbeat), so a crash redoes at most one batch and no finished chunk is redone.
 * Returns what this attempt wrote.
 */
export async function forEachPendingBatch<C extends { chunk_index: number }>(
  source: PendingBatches<C>,
  work: (batch: C[]) => Promise<number>,
): Promise<number> {
  const progress = resumePoint();
  let writtenNow = 0;
  for (;;) {
    const page = await source.readPage(progress.lastChunkIndex, source.pageSize);
    if (page.length === 0) break;
    for (let i = 0; i < page.length; i += source.batchSize) {
      const batch = page.slice(i, i + source.batchSize);
      const written = await work(batch);
      writtenNow += written;
      progress.lastChunkIndex = (batch[batch.length - 1] as C).chunk_index;
      progress.done += written;
      reportProgress(progress);
    }
    // A short page was the last one: no query to find that nothing is left.
    if (page.length < source.pageSize) break;
  }
  return writtenNow;
}
