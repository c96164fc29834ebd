import { documentsWithRetiredChunks } from '../../db/repositories/chunkGenerations';
import { listStuckTasks, markTaskFailed } from '../../db/repositories/pipelines';
import type { ActivityDeps } from '../deps';
import { removeStaleSources, retireOldChunkSets } from './retireChunkSets';
import { mappingFailures } from '../toApplicationFailure';

/** Documents whose left-over retired chunk sets one sweep removes; the next tick takes the rest. */
const RETIRE_PER_SWEEP = 100;

/**
 * Finds tasks left PENDING/PROCESSING by a run that no longer exists (terminated from the Web
 * UI, lost with a crashed server) and converges them to FAILED / INTERRUPTED_TASK, so no row
 * stays PROCESSING forever. A task whose run is still open is left alone, however slow. It also
 * retires chunk sets a rebuild switched away from but whose run ended before removing them
 * (terminated or reset between the switch and the clean-up: docs/rebuild.md).
 */
export function createSweepStuckTasksActivity(deps: ActivityDeps) {
  return mappingFailures(async function sweepStuckTasks(input: {
    stuckAfterMs: number;
  }): Promise<{ swept: string[]; retired?: string[] }> {
    const candidates = await listStuckTasks(deps.db, input.stuckAfterMs);
    const swept: string[] = [];
    for (const c of candidates) {
      const ownedByOpenRun = c.last_task_id === c.task_id && (await deps.runs.isOpen(c.document_id));
      if (ownedByOpenRun) continue;
      await markTaskFailed(deps.db, c.task_id, {
        stage: null,
        code: 'INTERRUPTED_TASK',
        message: 'its run ended without finishing it (found by the stuck-task sweep)',
      });
      swept.push(c.task_id);
    }
    const retired: string[] = [];
    for (const owner of await documentsWithRetiredChunks(deps.db, RETIRE_PER_SWEEP)) {
      // An open run retires its own old set when it succeeds: left to it.
      if (await deps.runs.isOpen(owner.documentId)) continue;
      await removeStaleSources(deps, owner.documentId);
      await retireOldChunkSets(deps, owner);
      retired.push(owner.documentId);
    }
    return { swept, retired };
  });
}
