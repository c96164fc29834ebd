import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import type { SearchHit, TenantScope, VectorStore } from './ports';
import {
  DENSE_VECTOR,
  INDEXED_FIELDS,
  SPARSE_VECTOR,
  assertSupportedServerVersion,
  collectionMismatch,
  hitsFromPoints,
  inBatches,
  matchKeyword,
  pointIdForChunk,
  tenantFilter,
} from './qdrantSupport';

/** Points per write request: 128 dense vectors of 3072 floats stay well under Qdrant's 32 MB body limit. */
const WRITE_BATCH = 128;
const DELETE_BATCH = 512;

export interface QdrantVectorStoreOptions {
  url: string;
  apiKey?: string;
  collection: string;
  dimension: number;
}

export type QdrantVectorStore = VectorStore & {
  /** Creates the collection and its payload indexes if missing; refuses one configured otherwise. */
  ensureCollection(): Promise<void>;
};

/**
 * The production vector store (DESIGN.md §6): one collection, a named dense vector `dense`
 * (cosine) and a named sparse vector `sparse` (IDF modifier) per chunk, payload indexes on
 * user, dataset and document. Every search filters by the tenant.
 *
 * A point can hold both vectors, written at different stages. Each write batch is one
 * `batchUpdate`: an `insert_only` upsert creates the points that do not exist yet, then
 * `update_vectors` sets only the written vector (leaving the other one alone) and `set_payload`
 * merges the flags `has_dense` / `has_sparse` that `countForDocument` counts.
 */
export function createQdrantVectorStore(options: QdrantVectorStoreOptions): QdrantVectorStore {
  const { collection, dimension } = options;
  const client = new QdrantClient({
    url: options.url,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    checkCompatibility: false,
  });
  let ready: Promise<void> | null = null;

  async function setUpCollection(): Promise<void> {
    assertSupportedServerVersion((await client.versionInfo()).version);
    if (!(await client.collectionExists(collection)).exists) {
      try {
        await client.createCollection(collection, {
          vectors: { [DENSE_VECTOR]: { size: dimension, distance: 'Cosine' } },
          sparse_vectors: { [SPARSE_VECTOR]: { modifier: 'idf' } },
        });
      } catch (err) {
        // Another worker may have created it between our check and our create.
        if (!(await client.collectionExists(collection)).exists) throw err;
      }
    }
    const info = await client.getCollection(collection);
    const problem = collectionMismatch(info, collection, dimension);
    if (problem) throw new Error(problem);
    for (const field of INDEXED_FIELDS) {
      if (info.payload_schema[field]) continue;
      await client.createPayloadIndex(collection, {
        wait: true,
        field_name: field,
        field_schema: field === 'user_id' ? { type: 'keyword', is_tenant: true } : 'keyword',
      });
    }
  }

  /** Set up once per store; a failure is not cached, so the next call tries again. */
  function ensureReady(): Promise<void> {
    ready ??= setUpCollection().catch((err: unknown) => {
      ready = null;
      throw err;
    });
    return ready;
  }

  function assertQueryDimension(vector: number[]): void {
    if (vector.length !== dimension) {
      throw new Error(
        `query vector has ${vector.length} dimensions, Qdrant collection ${collection} expects ${dimension}`,
      );
    }
  }

  async function writeBatch(
    ids: string[],
    inserts: Schemas['PointStruct'][],
    vectors: Schemas['PointVectors'][],
    flags: Schemas['Payload'],
  ): Promise<void> {
    await client.batchUpdate(collection, {
      wait: true,
      operations: [
        { upsert: { points: inserts, update_mode: 'insert_only' } },
        { update_vectors: { points: vectors } },
        { set_payload: { points: ids, payload: flags } },
      ],
    });
  }

  /** Writes one named vector of each record (and the payload flags saying it is there), in batches. */
  async function upsertVectors<R extends { chunkId: string; documentId: string }>(
    scope: TenantScope,
    records: R[],
    vectorOf: (r: R) => Schemas['VectorStruct'],
    flags: Schemas['Payload'],
  ): Promise<void> {
    if (records.length === 0) return;
    await ensureReady();
    for (const batch of inBatches(records, WRITE_BATCH)) {
      const ids = batch.map((r) => pointIdForChunk(r.chunkId));
      const vectors = batch.map(vectorOf);
      await writeBatch(
        ids,
        batch.map((r, i) => ({
          id: ids[i] as string,
          vector: vectors[i] as Schemas['VectorStruct'],
          payload: {
            chunk_id: r.chunkId,
            document_id: r.documentId,
            user_id: scope.userId,
            dataset_id: scope.datasetId,
            ...flags,
          },
        })),
        batch.map((_, i) => ({ id: ids[i] as string, vector: vectors[i] as Schemas['VectorStruct'] })),
        flags,
      );
    }
  }

  async function query(request: Schemas['QueryRequest']): Promise<SearchHit[]> {
    if ((request.limit ?? 0) <= 0) return [];
    await ensureReady();
    const { points } = await client.query(collection, { ...request, with_payload: ['chunk_id'], with_vector: false });
    return hitsFromPoints(points);
  }

  return {
    ensureCollection: ensureReady,

    async upsertDense(scope, model, records) {
      for (const r of records) {
        if (r.vector.length !== model.dimension) {
          throw new Error(
            `vector of chunk ${r.chunkId} has ${r.vector.length} dimensions, expected ${model.dimension}`,
          );
        }
      }
      if (model.dimension !== dimension) {
        throw new Error(
          `model ${model.model} has ${model.dimension} dimensions, Qdrant collection ${collection} expects ${dimension}`,
        );
      }
      await upsertVectors(scope, records, (r) => ({ [DENSE_VECTOR]: r.vector }), {
        model: model.model,
        dimension: model.dimension,
        has_dense: true,
      });
    },

    async upsertSparse(scope, records) {
      for (const r of records) {
        if (r.sparse.indices.length !== r.sparse.values.length) {
          throw new Error(
            `sparse vector of chunk ${r.chunkId} has ${r.sparse.indices.length} indices but ${r.sparse.values.length} values`,
          );
        }
      }
      await upsertVectors(
        scope,
        records,
        (r) => ({ [SPARSE_VECTOR]: { indices: r.sparse.indices, values: r.sparse.values } }),
        { has_sparse: true },
      );
    },

    async deleteDocument(scope, documentId) {
      await ensureReady();
      await client.delete(collection, {
        wait: true,
        filter: tenantFilter(scope, matchKeyword('document_id', documentId)),
      });
    },

    async deleteChunks(scope, chunkIds) {
      if (chunkIds.length === 0) return;
      await ensureReady();
      for (const batch of inBatches(chunkIds, DELETE_BATCH)) {
        await client.delete(collection, {
          wait: true,
          filter: tenantFilter(scope, { has_id: batch.map(pointIdForChunk) }),
        });
      }
    },

    async searchDense(scope, vector, limit, model) {
      assertQueryDimension(vector);
      const filter = model ? tenantFilter(scope, { key: 'model', match: { value: model } }) : tenantFilter(scope);
      return query({ query: vector, using: DENSE_VECTOR, filter, limit });
    },

    async searchSparse(scope, sparse, limit) {
      if (sparse.indices.length === 0) return [];
      return query({
        query: { indices: sparse.indices, values: sparse.values },
        using: SPARSE_VECTOR,
        filter: tenantFilter(scope),
        limit,
      });
    },

    async countForDocument(documentId) {
      await ensureReady();
      const count = async (flag: 'has_dense' | 'has_sparse') =>
        (
          await client.count(collection, {
            exact: true,
            filter: { must: [matchKeyword('document_id', documentId), matchKeyword(flag, true)] },
          })
        ).count;
      const [dense, sparse] = await Promise.all([count('has_dense'), count('has_sparse')]);
      return { dense, sparse };
    },
  };
}
