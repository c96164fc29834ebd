import { CancelledFailure, Context } from '@temporalio/activity';

/** Progress a long stage reports, and resumes from on the next attempt. */
export interface BatchProgress {
  /** Highest chunk_index fully processed by an earlier attempt. */
  lastChunkIndex: number;
  done: number;
}

export function resumePoint(): BatchProgress {
  const details = Context.current().info.heartbeatDetails as Partial<BatchProgress> | undefined;
  if (details && typeof details.lastChunkIndex === 'number' && typeof details.done === 'number') {
    return { lastChunkIndex: details.lastChunkIndex, done: details.done };
  }
  return { lastChunkIndex: -1, done: 0 };
}

/** Reports progress and stops promptly when the run was cancelled (e.g. the document is being deleted). */
export function reportProgress(progress: BatchProgress): void {
  const ctx = Context.current();
  ctx.heartbeat(progress);
  if (ctx.cancellationSignal.aborted) throw new CancelledFailure('activity cancelled');
}
