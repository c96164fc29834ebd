import type { RebuildCandidate, RebuildSettlement } from '../../contracts/rebuild';
import { rebuildPage } from '../../db/repositories/rebuildCandidates';
import { awaitTaskSettled } from '../awaitTaskSettled';
import type { ActivityDeps } from '../deps';
import { mappingFailures } from '../toApplicationFailure';

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

    /** Resolves once the document's rebuild task has settled (awaitTaskSettled): SUCCESS, FAILED or CLOSED. */
    awaitRebuildSettled: mappingFailures(
      async (input: { documentId: string; taskId: string }): Promise<RebuildSettlement> =>
        (await awaitTaskSettled(deps, input)).status,
    ),
  };
}
