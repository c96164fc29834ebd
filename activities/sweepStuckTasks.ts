import { listStuckTasks, markTaskFailed } from '../db/repositories/pipelines';
import type { ActivityDeps } from './deps';
import { mappingFailures } from './toApplicationFailure';

/**
 * Finds tasks left PENDING/PROCESSING by a run that no longer exists (terminated from the Web
 * UI, lost with a crashed server) and converges them to FAILED / INTERRUPTED_TASK, so no row
 * stays PROCESSING forever. A task whose run is still open is left alone, however slow.
 */
export function createSweepStuckTasksActivity(deps: ActivityDeps) {
  return mappingFailures(async function sweepStuckTasks(input: { stuckAfterMs: number }): Promise<{ swept: string[] }> {
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
    return { swept };
  });
}
