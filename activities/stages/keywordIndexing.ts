import type { StageInput, StageResult } from '../../contracts/ingest';
import { transientError } from '../../contracts/sluiceError';
import { listActiveChunks, listDocumentChunkIds, setChunkStatus, type ChunkText } from '../../db/repositories/chunks';
import type { TenantScope } from '../../stores/ports';
import type { ActivityDeps } from '../deps';
import type { DocumentFieldValues } from '../../contracts/documentFields';
import { currentFields, refreshCopiedFields } from './copyFields';
import { reportProgress, resumePoint } from '../heartbeat';
import { runStage } from './stageTemplate';
import { loadOrRebuildTokenPlan, type TokenPlan } from './tokenPlan';
import { orTransient } from '../transient';

const INDEX_BATCH = 200;

/**
 * KEYWORD_INDEXING: every active chunk of the task's set gets its entry, upserted under its chunk id, so no attempt
 * ever deletes an active chunk's entry and the resume point cannot outrun the index: a heartbeat
 * says "every chunk up to here is indexed and marked", and nothing takes those entries out
 * again. (Deleting the document's entries after a refused batch, while the retry skipped the
 * batches before it, once ended SUCCESS with half the chunks missing from the index.)
 * - Entries of chunks a rebuild dropped are the only ones removed, at the start of every attempt.
 * - An attempt without a resume point upserts every active chunk: a new task refreshes the
 *   entries, and heals any whose status says more than the index holds.
 * - A batch's confirmed entries are marked before the resume point passes it; one refused entry
 *   fails the attempt with the resume point still before that batch.
 */
export function createKeywordIndexingActivity(deps: ActivityDeps) {
  return async function keywordIndexing(input: StageInput): Promise<StageResult> {
    return runStage(deps, input, 'KEYWORD_INDEXING', async (started) => {
      const scope = { userId: input.userId, datasetId: input.datasetId };
      await orTransient('ENSURE_INDEX_FAILED', 'ensuring the keyword index', () => deps.keywords.ensureIndex());
      // The set's active chunks, read once: they are what the plan must cover and what gets indexed.
      const set = { documentId: input.documentId, generation: started.chunkGeneration };
      const active = await listActiveChunks(deps.db, set);
      const plan = await loadOrRebuildTokenPlan(deps, input, started, active);
      // A rebuild indexes its new set while the served one stays searchable: only entries of
      // chunks in no generation of the document are removed here (the old set goes at its retirement).
      const keepIds = await listDocumentChunkIds(deps.db, input.documentId);
      await orTransient('KEYWORD_DELETE_FAILED', 'removing entries of dropped chunks', () =>
        deps.keywords.deleteDocumentExcept(scope, input.documentId, keepIds),
      );
      const progress = resumePoint();
      // A resumed attempt's earlier batches may carry an older copy of the fields: then it is set again.
      const resumed = progress.lastChunkIndex >= 0;
      const chunks = active.filter((c) => c.chunk_index > progress.lastChunkIndex);
      // Each entry carries the document's fields; a change that lands meanwhile is copied after.
      const fields = await currentFields(deps, input.documentId);
      const doc = { documentId: input.documentId, fileName: started.fileName, plan, fields };
      for (let i = 0; i < chunks.length; i += INDEX_BATCH) {
        const batch = chunks.slice(i, i + INDEX_BATCH);
        await indexBatch(deps, scope, doc, batch);
        progress.lastChunkIndex = (batch[batch.length - 1] as { chunk_index: number }).chunk_index;
        progress.done += batch.length;
        reportProgress(progress);
      }
      await refreshCopiedFields(deps, 'keywords', scope, input.documentId, resumed ? null : (fields?.version ?? null));
      return progress.done;
    });
  };
}

/** Upserts one batch and marks what the index confirmed; throws if it refused any entry. */
async function indexBatch(
  deps: ActivityDeps,
  scope: TenantScope,
  doc: { documentId: string; fileName: string; plan: TokenPlan; fields: DocumentFieldValues | null },
  batch: ChunkText[],
): Promise<void> {
  const entries = batch.map((c) => ({
    chunkId: c.chunk_id,
    documentId: doc.documentId,
    fileName: doc.fileName,
    text: c.text,
    tokens: doc.plan.get(c.chunk_id) ?? [],
    ...(doc.fields ? { documentFields: doc.fields } : {}),
  }));
  const { failedChunkIds } = await orTransient('KEYWORD_INDEXING_FAILED', 'bulk indexing', () =>
    deps.keywords.bulkIndex(scope, entries),
  );
  const refused = new Set(failedChunkIds);
  // What the index confirmed is marked even in a failed batch, so the statuses stay exact; the
  // retry still re-sends the whole batch, as the resume point stays before it.
  const confirmed = batch.filter((c) => !refused.has(c.chunk_id)).map((c) => c.chunk_id);
  await setChunkStatus(deps.db, confirmed, 'keyword_status', 'SUCCESS');
  if (refused.size > 0) {
    throw transientError(
      'KEYWORD_INDEXING_FAILED',
      `${refused.size} entries were refused: ${failedChunkIds.slice(0, 10).join(', ')}`,
    );
  }
}
