import { ApplicationFailure, condition, setHandler, uuid4 } from '@temporalio/workflow';
import type { IngestProgress } from '../contracts/ingest';
import { requestRetryUpdate, retrySignal, type RetryAccepted } from '../contracts/ingestApi';

/**
 * The `retry` signal and the `requestRetry` update of a run. Only a run that failed and is
 * waiting accepts, and only once: the first accepted request decides the new task id.
 */
export function installRetryGate(progress: IngestProgress) {
  let accepted: RetryAccepted | null = null;
  const accept = (): RetryAccepted => {
    accepted = { retryOfTaskId: progress.taskId, taskId: uuid4() };
    progress.waitingForRetry = false;
    return accepted;
  };
  setHandler(retrySignal, () => {
    if (progress.waitingForRetry && !accepted) accept();
  });
  setHandler(requestRetryUpdate, accept, {
    validator: () => {
      const reason = accepted
        ? `a retry of task ${progress.taskId} was already accepted`
        : progress.status === 'SUCCESS'
          ? `task ${progress.taskId} succeeded; there is nothing to retry`
          : !progress.waitingForRetry
            ? `task ${progress.taskId} is still ${progress.status}`
            : null;
      if (reason)
        throw ApplicationFailure.create({
          type: 'RETRY_VALIDATION_FAILED',
          message: `RETRY_VALIDATION_FAILED:${reason}`,
          nonRetryable: true,
        });
    },
  });
  return {
    /** From now on a retry is accepted. */
    open(): void {
      if (!accepted) progress.waitingForRetry = true;
    },
    /** Waits until a retry is accepted (→ it) or the wait runs out (→ null). */
    async wait(timeout: string): Promise<RetryAccepted | null> {
      await condition(() => accepted !== null, timeout);
      return accepted;
    },
  };
}
