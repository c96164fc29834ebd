import type { Kysely } from 'kysely';
import type { RebuildCandidate } from '../../contracts/rebuild';
import type { Database } from '../database';

/**
 * The next page of the dataset's active documents after `afterDocumentId` (in id order, so a
 * continue-as-new resumes exactly), each with its latest task and whether that task succeeded and
 * kept its markdown: only those can be rebuilt.
 */
export async function rebuildPage(
  db: Kysely<Database>,
  scope: { userId: string; datasetId: string },
  afterDocumentId: string | undefined,
  limit: number,
): Promise<{ candidates: RebuildCandidate[]; skipped: number; lastDocumentId: string | null }> {
  let query = db
    .selectFrom('documents as d')
    .leftJoin('pipelines as p', 'p.task_id', 'd.last_task_id')
    .leftJoin('parse_tasks as t', 't.task_id', 'd.last_task_id')
    .select(['d.id', 'd.last_task_id', 'p.pipeline_status', 't.markdown_object_key'])
    .where('d.user_id', '=', scope.userId)
    .where('d.dataset_id', '=', scope.datasetId)
    .where('d.lifecycle', '=', 'ACTIVE')
    .orderBy('d.id')
    .limit(limit);
  if (afterDocumentId !== undefined) query = query.where('d.id', '>', afterDocumentId);
  const rows = await query.execute();
  const candidates: RebuildCandidate[] = [];
  for (const r of rows) {
    if (r.last_task_id && r.pipeline_status === 'SUCCESS' && r.markdown_object_key)
      candidates.push({ documentId: r.id, lastTaskId: r.last_task_id });
  }
  return { candidates, skipped: rows.length - candidates.length, lastDocumentId: rows.at(-1)?.id ?? null };
}
