import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import type { RebuildCandidate, RebuildSettlement } from '../../contracts/rebuild';
import { rebuildPage, taskStatus } from '../../db/repositories/rebuildCandidates';
import type { ActivityDeps } from '../deps';
import { mappingFailures } from '../toApplicationFailure';

const POLL_MS = 1000;

/** The activities of a dataset rebuild (workflows/rebuildDataset.ts). */
export function createRebuildDatasetActivities(deps: ActivityDeps) {
  return {
    /** The next page of documents to rebuild, and how many of the page cannot be. */
    listRebuildPage: mappingFailures(
      async (input: {
        userId: string;
        datasetId: string;
        afterDocumentId?: string;
        limit: number;
      }): Promise<{ candidates: RebuildCandidate[]; skipped: number; lastDocumentId: string | null }> =>
        rebuildPage(deps.db, input, input.afterDocumentId, input.limit),
    ),

    /**
     * Resolves once the document's rebuild task has ended its attempt: SUCCESS, FAILED (its run
     * then waits for a retry, and no longer holds a slot), or CLOSED when the run closed without
     * one (prepareTask refused it). Polls Postgres, heartbeating, so a dead worker is noticed.
     */
    awaitRebuildSettled: mappingFailures(
      async (input: { documentId: string; taskId: string }): Promise<RebuildSettlement> => {
        for (;;) {
          const status = await taskStatus(deps.db, input.taskId);
          if (status === 'SUCCESS' || status === 'FAILED') return status;
          if (!(await deps.runs.isOpen(input.documentId))) {
            // The row may have been written just before the run closed; a task left unfinished by
            // a terminated run is the stuck-task sweep's, and frees the slot now.
            const last = await taskStatus(deps.db, input.taskId);
            return last === 'SUCCESS' || last === 'FAILED' ? last : 'CLOSED';
          }
          Context.current().heartbeat();
          await sleep(POLL_MS, undefined, { signal: Context.current().cancellationSignal }).catch(() => undefined);
          if (Context.current().cancellationSignal.aborted) return 'CLOSED';
        }
      },
    ),
  };
}
