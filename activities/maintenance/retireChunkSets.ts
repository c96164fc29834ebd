import type { StageInput } from '../../contracts/ingest';
import { deleteRetiredChunks, retiredChunkIds, servedChunkIds } from '../../db/repositories/chunkGenerations';
import { staleSourceKeys } from '../../db/repositories/servedIndex';
import type { TenantScope } from '../../stores/ports';
import type { ActivityDeps } from '../deps';
import { mappingFailures } from '../toApplicationFailure';
import { orTransient } from '../transient';

/**
 * Removes a document's retired chunk sets, the generations below the one search serves
 * (docs/rebuild.md), from every store: dense and sparse vectors, then keyword entries, then the
 * rows, which are how the earlier steps find what to remove. Search stopped returning these
 * chunks at the switch, so nothing a caller sees changes here. Idempotent: what is gone stays
 * gone. Returns how many rows were removed.
 */
export async function retireOldChunkSets(
  deps: Pick<ActivityDeps, 'db' | 'vectors' | 'keywords'>,
  owner: TenantScope & { documentId: string },
): Promise<number> {
  const retired = await retiredChunkIds(deps.db, owner.documentId);
  if (retired.length === 0) return 0;
  await orTransient('VECTORIZING_FAILED', 'removing retired vectors', () => deps.vectors.deleteChunks(owner, retired));
  const live = await servedChunkIds(deps.db, owner.documentId);
  await orTransient('KEYWORD_DELETE_FAILED', 'removing retired keyword entries', () =>
    deps.keywords.deleteDocumentExcept(owner, owner.documentId, live),
  );
  return deleteRetiredChunks(deps.db, owner.documentId);
}

/**
 * Removes the source objects a replacement of the document's content left behind
 * (servedIndex.ts staleSourceKeys). Run before the chunk sets are retired: the sweep finds a
 * document by its retired chunks, so a crash in between still has its sources removed.
 */
export async function removeStaleSources(
  deps: Pick<ActivityDeps, 'db' | 'objects'>,
  documentId: string,
): Promise<number> {
  let removed = 0;
  for (const key of await staleSourceKeys(deps.db, documentId)) {
    removed += await deps.objects.deletePrefix(key);
  }
  return removed;
}

/** The clean-up a rebuild or replacement run ends with, after its success switched the document's index. */
export function createRetireChunkSetsActivity(deps: ActivityDeps) {
  return mappingFailures(async function retireChunkSets(input: StageInput): Promise<number> {
    await removeStaleSources(deps, input.documentId);
    return retireOldChunkSets(deps, input);
  });
}
