import { setCurrentDetails, setHandler } from '@temporalio/workflow';
import type { IngestProgress } from '../contracts/ingest';
import { WaitingForKey } from '../contracts/searchAttributes';
import { stageWaitingSignal } from '../contracts/stageWaiting';
import type { PendingSearchAttributes } from './pendingSearchAttributes';

export interface WaitingState {
  /** The stage moved on (its activity returned or failed for good): nothing waits any more. */
  clear(): void;
}

/**
 * What the run waits for, from the worker's reports (worker/waitingReporter.ts): kept in the
 * progress query ("waiting for Postgres since 12:03, attempt 7"), in the run's current details (the
 * Web UI's), and in the WaitingFor search attribute, written at once so that an operator's count
 * is current. `since` is when the stage
 * first failed; it holds across the stage's further failed attempts.
 */
export function installWaitingState(progress: IngestProgress, searchAttributes: PendingSearchAttributes): WaitingState {
  setHandler(stageWaitingSignal, (report) => {
    const same = progress.waiting != null && progress.waiting.stage === progress.currentStage;
    progress.waiting = {
      for: report.waitingFor,
      code: report.code,
      stage: progress.currentStage,
      attempt: report.attempt + 1,
      since: same && progress.waiting ? progress.waiting.since : new Date().toISOString(),
    };
    searchAttributes.set([{ key: WaitingForKey, value: report.waitingFor }]);
    searchAttributes.flush();
    // The Web UI shows a run's current details on its page.
    const { since, stage, attempt } = progress.waiting;
    setCurrentDetails(
      `**Waiting for ${report.waitingFor}** since ${since.slice(11, 19)} UTC, attempt ${attempt}${stage ? ` (${stage})` : ''}: ${report.code}, retried for the outage budget`,
    );
  });
  return {
    clear() {
      if (progress.waiting == null) return;
      progress.waiting = null;
      setCurrentDetails('');
      // Written with the next stage's attributes, or the run's end.
      searchAttributes.set([{ key: WaitingForKey, value: null }]);
    },
  };
}
