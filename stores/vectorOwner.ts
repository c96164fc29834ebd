import type { TenantScope } from './ports';

/**
 * What every stored vector carries besides itself, under the same names in Postgres columns and
 * Qdrant payloads: its chunk, and the document and tenant it belongs to (what deletes and every
 * search filter read).
 */
export function ownerColumns(scope: TenantScope, r: { chunkId: string; documentId: string }) {
  return { chunk_id: r.chunkId, document_id: r.documentId, user_id: scope.userId, dataset_id: scope.datasetId };
}
