import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import { MAX_WINDOWS, windowId } from '../chunker/passageWindows';
import type { EmbeddingModelRef, PassageWindowRecord, SearchHit, SearchScope, TenantScope } from './ports';
import { DENSE_VECTOR, hitsFromPoints, inBatches, pointIdForChunk, tenantFilter } from './qdrantSupport';
import { ownerColumns } from './vectorOwner';
import { searchFilter } from './qdrantFilter';

/** Chunks per request: their windows (up to a dozen each) in one upsert, well under the body limit. */
const CHUNKS_PER_WRITE = 32;

export interface WindowCollections {
  client: QdrantClient;
  /** The model's window collection, created on first use. */
  collectionOf(model: EmbeddingModelRef): Promise<string>;
  /** Every window collection of the deployment (any model). */
  all(): Promise<string[]>;
}

/** A filter on the chunks' windows: their payload names the chunk (a window's point id is its own). */
export function ofChunks(scope: TenantScope, chunkIds: string[]): Schemas['Filter'] {
  return tenantFilter(scope, { key: 'chunk_id', match: { any: chunkIds } });
}

/**
 * Each record's windows in place of every window its chunk had in any window collection: the old
 * ones go first, so a chunk never shows two embeddings' windows; a crash in between leaves the chunk
 * without windows until VECTORIZING, which marks it only after this returns, writes them again.
 */
export async function upsertWindowPoints(
  collections: WindowCollections,
  scope: TenantScope,
  model: EmbeddingModelRef,
  records: PassageWindowRecord[],
): Promise<void> {
  if (records.length === 0) return;
  const collection = await collections.collectionOf(model);
  const all = await collections.all();
  for (const batch of inBatches(records, CHUNKS_PER_WRITE)) {
    const filter = ofChunks(
      scope,
      batch.map((r) => r.chunkId),
    );
    for (const c of all) await collections.client.delete(c, { wait: true, filter });
    const points = batch.flatMap((r) =>
      r.vectors.map((vector, index) => ({
        id: pointIdForChunk(windowId(r.chunkId, index)),
        vector: { [DENSE_VECTOR]: vector },
        payload: { ...ownerColumns(scope, r), model: model.model, dimension: model.dimension },
      })),
    );
    if (points.length > 0) await collections.client.upsert(collection, { wait: true, points });
  }
}

/** Each given chunk's best window (its score), best first: the query reads only those chunks' windows. */
export async function scoreWindowPoints(
  client: QdrantClient,
  collection: string,
  scope: SearchScope,
  vector: number[],
  chunkIds: string[],
): Promise<SearchHit[]> {
  if (chunkIds.length === 0) return [];
  const { points } = await client.query(collection, {
    query: vector,
    using: DENSE_VECTOR,
    filter: searchFilter({ ...scope, filter: undefined }, { key: 'chunk_id', match: { any: chunkIds } }),
    limit: chunkIds.length * MAX_WINDOWS,
    with_payload: ['chunk_id'],
    with_vector: false,
  });
  const best = new Map<string, SearchHit>();
  for (const hit of hitsFromPoints(points)) if (!best.has(hit.chunkId)) best.set(hit.chunkId, hit);
  return [...best.values()];
}
