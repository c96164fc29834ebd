import { createHash } from 'node:crypto';
import type { Schemas } from '@qdrant/js-client-rest';
import type { TenantScope } from './ports';

/** The names of the two vectors every point of a sluice collection may carry. */
export const DENSE_VECTOR = 'dense';
export const SPARSE_VECTOR = 'sparse';

/** Payload fields with a keyword index: every filter we send is on these. */
export const INDEXED_FIELDS = ['user_id', 'dataset_id', 'document_id'] as const;

/**
 * Writes rely on `update_mode: insert_only` (Qdrant 1.17) so that writing one kind of vector
 * never replaces the other. An older server might ignore the unknown field and overwrite the
 * point, silently dropping a vector, so older servers are refused up front.
 */
export const MIN_SERVER_VERSION: readonly [number, number] = [1, 17];

/**
 * Qdrant point ids must be unsigned integers or UUIDs. A chunk's point id is a UUID built from
 * the SHA-256 of its chunk id (RFC 9562 version-8 layout): the same chunk always maps to the
 * same point, which makes every write an upsert keyed by chunk id.
 */
export function pointIdForChunk(chunkId: string): string {
  const bytes = Buffer.from(createHash('sha256').update(chunkId, 'utf8').digest().subarray(0, 16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function matchKeyword(key: string, value: string | boolean): Schemas['FieldCondition'] {
  return { key, match: { value } };
}

export function tenantConditions(scope: TenantScope): Schemas['Condition'][] {
  return [matchKeyword('user_id', scope.userId), matchKeyword('dataset_id', scope.datasetId)];
}

export function tenantFilter(scope: TenantScope, ...more: Schemas['Condition'][]): Schemas['Filter'] {
  return { must: [...tenantConditions(scope), ...more] };
}

export function inBatches<T>(items: T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}

/** Throws unless the server is at least MIN_SERVER_VERSION. */
export function assertSupportedServerVersion(version: string): void {
  const match = /^v?(\d+)\.(\d+)/.exec(version);
  const [min, minMinor] = MIN_SERVER_VERSION;
  const supported =
    match !== null && (Number(match[1]) > min || (Number(match[1]) === min && Number(match[2]) >= minMinor));
  if (!supported) {
    throw new Error(
      `Qdrant server ${version} is too old: sluice needs Qdrant ${min}.${minMinor} or newer (upsert update_mode insert_only)`,
    );
  }
}

/** Describes how an existing collection differs from what this store needs, or null if it fits. */
export function collectionMismatch(
  info: Schemas['CollectionInfo'],
  collection: string,
  dimension: number,
): string | null {
  const vectors = info.config.params.vectors;
  const named =
    vectors && !('size' in vectors && typeof vectors.size === 'number')
      ? (vectors as Record<string, Schemas['VectorParams'] | undefined>)
      : {};
  const dense = named[DENSE_VECTOR];
  if (!dense) return `Qdrant collection ${collection} has no named dense vector "${DENSE_VECTOR}"`;
  if (dense.size !== dimension) {
    return `Qdrant collection ${collection} stores ${dense.size}-dimensional dense vectors, but the store is configured for ${dimension} dimensions`;
  }
  if (dense.distance !== 'Cosine')
    return `Qdrant collection ${collection} uses ${dense.distance} distance for "${DENSE_VECTOR}", expected Cosine`;
  const sparse = info.config.params.sparse_vectors?.[SPARSE_VECTOR];
  if (!sparse) return `Qdrant collection ${collection} has no named sparse vector "${SPARSE_VECTOR}"`;
  if (sparse.modifier !== 'idf')
    return `Qdrant collection ${collection}: sparse vector "${SPARSE_VECTOR}" must use modifier idf`;
  return null;
}

export function hitsFromPoints(points: Schemas['ScoredPoint'][]): { chunkId: string; score: number }[] {
  return points.map((p) => {
    const chunkId = p.payload?.chunk_id;
    if (typeof chunkId !== 'string') throw new Error(`Qdrant point ${String(p.id)} has no chunk_id in its payload`);
    return { chunkId, score: p.score };
  });
}
