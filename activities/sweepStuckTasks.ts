import { sql } from 'kysely';
import { markTaskFailed } from '../db/repositories/pipelines';
import type { ActivityDeps } from './deps';
import { toApplicationFailure } from './toApplicationFailure';

/**
 * Finds tasks left PENDING/PROCESSING by a run that no longer exists (terminated from the Web
 * UI, lost with a crashed server) and converges them to FAILED / INTERRUPTED_TASK, so no row
 * stays PROCESSING forever. A task whose run is still open is left alone, however slow.
 */
export function createSweepStuckTasksActivity(deps: ActivityDeps) {
  return async function sweepStuckTasks(input: { stuckAfterMs: number }): Promise<{ swept: string[] }> {
    try {
      const candidates = await deps.db
        .selectFrom('pipelines')
        .innerJoin('documents', 'documents.id', 'pipelines.document_id')
        .select(['pipelines.task_id', 'pipelines.document_id', 'documents.last_task_id'])
        .where('pipelines.pipeline_status', 'in', ['PENDING', 'PROCESSING'])
        .where('pipelines.updated_at', '<', sql<Date>`now() - make_interval(secs => ${input.stuckAfterMs / 1000})`)
        .execute();
      const swept: string[] = [];
      for (const c of candidates) {
        const ownedByOpenRun = c.last_task_id === c.task_id && (await deps.runs.isOpen(c.document_id));
        if (ownedByOpenRun) continue;
        await markTaskFailed(deps.db, c.task_id, { stage: null, code: 'INTERRUPTED_TASK', message: 'its run ended without finishing it (found by the stuck-task sweep)' });
        swept.push(c.task_id);
      }
      return { swept };
    } catch (error) {
      throw toApplicationFailure(error);
    }
  };
}
