import type { QdrantClient } from '@qdrant/js-client-rest';
import { MAX_WINDOWS } from '../chunker/passageWindows';
import type { DenseCopy, EmbeddingModelRef, TenantScope } from './ports';
import { DENSE_VECTOR, inBatches, pointIdForChunk } from './qdrantSupport';
import { ofChunks, upsertWindowPoints, type WindowCollections } from './qdrantWindows';
import { ownerColumns } from './vectorOwner';

/** Points per request: 128 vectors of 3072 floats stay well under Qdrant's 32 MB body limit. */
const BATCH = 128;
/** Chunks whose windows are read per request: up to MAX_WINDOWS points each. */
const WINDOW_CHUNKS = 32;

function vectorOf(point: { vector?: unknown }): number[] | undefined {
  const vector = (point.vector as Record<string, unknown> | undefined)?.[DENSE_VECTOR];
  return Array.isArray(vector) ? (vector as number[]) : undefined;
}

/**
 * Gives each target a copy of its source's point in `collection` (one point per chunk). Only the
 * tenant's own points are read: an id from elsewhere copies nothing. Returns the targets that got one.
 */
export async function copyPoints(
  client: QdrantClient,
  collection: string,
  scope: TenantScope,
  model: EmbeddingModelRef,
  copies: DenseCopy[],
): Promise<string[]> {
  const copied: string[] = [];
  for (const batch of inBatches(copies, BATCH)) {
    const sources = await client.retrieve(collection, {
      ids: batch.map((c) => pointIdForChunk(c.fromChunkId)),
      with_vector: [DENSE_VECTOR],
      with_payload: true,
    });
    const byChunk = new Map<string, number[]>();
    for (const point of sources) {
      const owner = point.payload;
      const vector = vectorOf(point);
      if (owner?.user_id !== scope.userId || owner.dataset_id !== scope.datasetId) continue;
      if (typeof owner.chunk_id === 'string' && vector) byChunk.set(owner.chunk_id, vector);
    }
    const points = batch.flatMap((c) => {
      const vector = byChunk.get(c.fromChunkId);
      if (!vector) return [];
      copied.push(c.toChunkId);
      const owner = ownerColumns(scope, { chunkId: c.toChunkId, documentId: c.documentId });
      return [
        {
          id: pointIdForChunk(c.toChunkId),
          vector: { [DENSE_VECTOR]: vector },
          payload: { ...owner, model: model.model, dimension: model.dimension },
        },
      ];
    });
    if (points.length > 0) await client.upsert(collection, { wait: true, points });
  }
  return copied;
}

/** Each target's windows become copies of its source's, in place of any it had (upsertWindowPoints). */
export async function copyWindowPoints(
  windows: WindowCollections,
  scope: TenantScope,
  model: EmbeddingModelRef,
  copies: DenseCopy[],
): Promise<void> {
  const collection = await windows.collectionOf(model);
  for (const batch of inBatches(copies, WINDOW_CHUNKS)) {
    const { points } = await windows.client.scroll(collection, {
      filter: ofChunks(
        scope,
        batch.map((c) => c.fromChunkId),
      ),
      limit: batch.length * MAX_WINDOWS,
      with_payload: ['chunk_id'],
      with_vector: [DENSE_VECTOR],
    });
    const bySource = new Map<string, number[][]>();
    for (const point of points) {
      const chunkId = point.payload?.chunk_id;
      const vector = vectorOf(point);
      if (typeof chunkId !== 'string' || !vector) continue;
      bySource.set(chunkId, [...(bySource.get(chunkId) ?? []), vector]);
    }
    const records = batch.map((c) => ({
      chunkId: c.toChunkId,
      documentId: c.documentId,
      vectors: bySource.get(c.fromChunkId) ?? [],
    }));
    await upsertWindowPoints(windows, scope, model, records);
  }
}
