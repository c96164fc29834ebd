import { createHash } from 'node:crypto';
import type { Schemas } from '@qdrant/js-client-rest';
import type { TenantScope } from './ports';

/** The names of the vectors a point carries: `dense` in a model's collection, `sparse` in the base one. */
export const DENSE_VECTOR = 'dense';
export const SPARSE_VECTOR = 'sparse';

/** Payload fields with a keyword index: every filter we send is on these. */
export const INDEXED_FIELDS = ['user_id', 'dataset_id', 'document_id', 'chunk_id', 'fields', 'field_keys'] as const;

/**
 * Searches use the Query API (Qdrant 1.10) and the tenant index on user_id uses `is_tenant`
 * (1.11); an older server would refuse them with errors that say little, so it is refused up front.
 */
export const MIN_SERVER_VERSION: readonly [number, number] = [1, 11];

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
      `Qdrant server ${version} is too old: sluice needs Qdrant ${min}.${minMinor} or newer (Query API, tenant payload index)`,
    );
  }
}

export function hitsFromPoints(points: Schemas['ScoredPoint'][]): { chunkId: string; score: number }[] {
  return points.map((p) => {
    const chunkId = p.payload?.chunk_id;
    if (typeof chunkId !== 'string') throw new Error(`Qdrant point ${String(p.id)} has no chunk_id in its payload`);
    return { chunkId, score: p.score };
  });
}
