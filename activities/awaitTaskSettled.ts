import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import { findPipeline } from '../db/repositories/pipelines';
import type { ActivityDeps } from './deps';

// A slot of a rebuild or a sync is held while its run is watched: a short poll keeps the slot from
// idling after the run settles; the run's liveness (a call to Temporal) is checked every IS_OPEN_EVERY polls.
const POLL_MS = 200;
const IS_OPEN_EVERY = 10;

/** How a task's attempt ended: SUCCESS, FAILED with its code, or CLOSED when its run closed without it. */
export interface TaskSettlement {
  status: 'SUCCESS' | 'FAILED' | 'CLOSED';
  failureCode: string | null;
}

/**
 * Resolves once the task's attempt has ended: SUCCESS, FAILED (its run then waits for a retry and no
 * longer holds a slot), or CLOSED when the run closed without the task (its take-over was refused,
 * or it was terminated: an unfinished task is then the stuck-task sweep's). Polls Postgres, heartbeating,
 * so a dead worker is noticed.
 */
export async function awaitTaskSettled(
  deps: Pick<ActivityDeps, 'db' | 'runs'>,
  input: { documentId: string; taskId: string },
): Promise<TaskSettlement> {
  const settledAs = async (): Promise<TaskSettlement | null> => {
    const pipeline = await findPipeline(deps.db, input.taskId);
    const status = pipeline?.pipeline_status;
    return status === 'SUCCESS' || status === 'FAILED' ? { status, failureCode: pipeline?.failure_code ?? null } : null;
  };
  for (let poll = 1; ; poll++) {
    const settled = await settledAs();
    if (settled) return settled;
    // The row may have been written just before the run closed: read once more.
    if (poll % IS_OPEN_EVERY === 0 && !(await deps.runs.isOpen(input.documentId)))
      return (await settledAs()) ?? { status: 'CLOSED', failureCode: null };
    Context.current().heartbeat();
    await sleep(POLL_MS, undefined, { signal: Context.current().cancellationSignal }).catch(() => undefined);
    if (Context.current().cancellationSignal.aborted) return { status: 'CLOSED', failureCode: null };
  }
}
