import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import { assertVectorsFit, dimensionMismatch } from './dimensionMismatch';
import type { DenseRecord, EmbeddingModelRef, SearchHit, SearchScope, TenantScope, VectorStore } from './ports';
import { fieldsPayload, searchFilter } from './qdrantFilter';
import {
  DENSE_INFIX,
  LANGUAGE_DENSE_INFIX,
  WINDOW_DENSE_INFIX,
  denseCollectionName,
  ensureDenseCollection,
  ensureSparseCollection,
  listDenseCollections,
  type DenseInfix,
} from './qdrantCollections';
import {
  DENSE_VECTOR,
  SPARSE_VECTOR,
  assertSupportedServerVersion,
  hitsFromPoints,
  inBatches,
  matchKeyword,
  pointIdForChunk,
  tenantFilter,
} from './qdrantSupport';
import { ownerColumns } from './vectorOwner';
import { copyPoints, copyWindowPoints } from './qdrantCopy';
import { ofChunks, scoreWindowPoints, upsertWindowPoints, type WindowCollections } from './qdrantWindows';

/** Points per write request: 128 dense vectors of 3072 floats stay well under Qdrant's 32 MB body limit. */
const WRITE_BATCH = 128;
const DELETE_BATCH = 512;

export interface QdrantVectorStoreOptions {
  url: string;
  apiKey?: string;
  /** The base name: the sparse collection, and the prefix of every model's dense collection. */
  collection: string;
}

export type QdrantVectorStore = VectorStore & {
  /** Checks the server and creates the sparse collection and its payload indexes if missing. */
  ensureCollection(): Promise<void>;
};

/** A set-up step run once per store; a failure is not cached, so the next call tries again. */
function once(step: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => {
    done ??= step().catch((err: unknown) => {
      done = null;
      throw err;
    });
    return done;
  };
}

/**
 * The production vector store (docs/design.md §6): the sparse vectors in the base collection, the
 * dense vectors in one collection per (model, dimension) (qdrantCollections.ts says why), each
 * with payload indexes on user, dataset and document. Every search filters by the tenant.
 */
export function createQdrantVectorStore(options: QdrantVectorStoreOptions): QdrantVectorStore {
  const base = options.collection;
  const name = `Qdrant collections ${base}*`;
  const client = new QdrantClient({
    url: options.url,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    checkCompatibility: false,
  });
  const ensureReady = once(async () => {
    assertSupportedServerVersion((await client.versionInfo()).version);
    await ensureSparseCollection(client, base);
  });
  const denseReady = new Map<string, () => Promise<void>>();

  /** The model's collection, created on first use, checked once per process. */
  async function denseCollection(model: EmbeddingModelRef, infix: DenseInfix): Promise<string> {
    await ensureReady();
    const collection = denseCollectionName(base, model, infix);
    let ready = denseReady.get(collection);
    if (!ready) {
      ready = once(() => ensureDenseCollection(client, collection, model));
      denseReady.set(collection, ready);
    }
    await ready();
    return collection;
  }

  /** Every collection that may hold a vector of a document: the sparse one and each model's. */
  async function allCollections(): Promise<string[]> {
    await ensureReady();
    return [
      base,
      ...(await listDenseCollections(client, base, DENSE_INFIX)),
      ...(await listDenseCollections(client, base, LANGUAGE_DENSE_INFIX)),
      ...(await listDenseCollections(client, base, WINDOW_DENSE_INFIX)),
    ];
  }

  const windows: WindowCollections = {
    client,
    collectionOf: (model) => denseCollection(model, WINDOW_DENSE_INFIX),
    all: () => listDenseCollections(client, base, WINDOW_DENSE_INFIX),
  };

  async function deleteWhere(collections: string[], filter: Schemas['Filter']): Promise<void> {
    for (const collection of collections) await client.delete(collection, { wait: true, filter });
  }

  async function query(collection: string, request: Schemas['QueryRequest']): Promise<SearchHit[]> {
    if ((request.limit ?? 0) <= 0) return [];
    const { points } = await client.query(collection, { ...request, with_payload: ['chunk_id'], with_vector: false });
    return hitsFromPoints(points);
  }

  /** A chunk's point of one kind written into its model's collection and removed from that kind's others. */
  async function upsertDenseOf(
    infix: DenseInfix,
    scope: TenantScope,
    model: EmbeddingModelRef,
    records: DenseRecord[],
  ): Promise<void> {
    assertVectorsFit(model, name, records);
    if (records.length === 0) return;
    const collection = await denseCollection(model, infix);
    // Listed once per call: a chunk's older vectors were written by an earlier, finished run.
    const others = (await listDenseCollections(client, base, infix)).filter((c) => c !== collection);
    for (const batch of inBatches(records, WRITE_BATCH)) {
      const ids = batch.map((r) => pointIdForChunk(r.chunkId));
      await client.upsert(collection, {
        wait: true,
        points: batch.map((r, i) => ({
          id: ids[i] as string,
          vector: { [DENSE_VECTOR]: r.vector },
          payload: { ...ownerColumns(scope, r), model: model.model, dimension: model.dimension },
        })),
      });
      // The move of a re-embedding: written first, so a crash in between leaves the chunk
      // searchable and the retry removes the old vectors.
      await deleteWhere(others, tenantFilter(scope, { has_id: ids }));
    }
  }

  /**
   * The model's collection of one kind for a query of `vector`, checked first: null when nothing
   * was embedded with this model yet (a search creates nothing).
   */
  async function collectionToQuery(
    infix: DenseInfix,
    model: EmbeddingModelRef,
    vector: number[],
  ): Promise<string | null> {
    if (vector.length !== model.dimension) {
      throw dimensionMismatch(model, name, `the query vector has ${vector.length} dimensions`);
    }
    await ensureReady();
    const collection = denseCollectionName(base, model, infix);
    if (!denseReady.has(collection) && !(await client.collectionExists(collection)).exists) return null;
    return denseCollection(model, infix);
  }

  async function searchDenseOf(
    infix: DenseInfix,
    scope: SearchScope,
    model: EmbeddingModelRef,
    vector: number[],
    limit: number,
  ): Promise<SearchHit[]> {
    const collection = await collectionToQuery(infix, model, vector);
    if (!collection) return [];
    return query(collection, { query: vector, using: DENSE_VECTOR, filter: searchFilter(scope), limit });
  }

  return {
    name,
    ensureCollection: ensureReady,

    upsertDense: (scope, model, records) => upsertDenseOf(DENSE_INFIX, scope, model, records),
    upsertLanguageDense: (scope, model, records) => upsertDenseOf(LANGUAGE_DENSE_INFIX, scope, model, records),
    async upsertPassageWindows(scope, model, records) {
      assertVectorsFit(
        model,
        name,
        records.flatMap((r) => r.vectors.map((vector) => ({ chunkId: r.chunkId, vector }))),
      );
      await upsertWindowPoints(windows, scope, model, records);
    },

    async copyDense(scope, model, copies) {
      if (copies.length === 0) return [];
      return copyPoints(client, await denseCollection(model, DENSE_INFIX), scope, model, copies);
    },

    async copyLanguageDense(scope, model, copies) {
      if (copies.length === 0) return [];
      const collection = await denseCollection(model, LANGUAGE_DENSE_INFIX);
      const copied = new Set(await copyPoints(client, collection, scope, model, copies));
      await copyWindowPoints(
        windows,
        scope,
        model,
        copies.filter((c) => copied.has(c.toChunkId)),
      );
      return [...copied];
    },

    async upsertSparse(scope, records) {
      for (const r of records) {
        if (r.sparse.indices.length !== r.sparse.values.length) {
          throw new Error(
            `sparse vector of chunk ${r.chunkId} has ${r.sparse.indices.length} indices but ${r.sparse.values.length} values`,
          );
        }
      }
      if (records.length === 0) return;
      await ensureReady();
      for (const batch of inBatches(records, WRITE_BATCH)) {
        await client.upsert(base, {
          wait: true,
          points: batch.map((r) => ({
            id: pointIdForChunk(r.chunkId),
            vector: { [SPARSE_VECTOR]: { indices: r.sparse.indices, values: r.sparse.values } },
            payload: { ...ownerColumns(scope, r), has_sparse: true },
          })),
        });
      }
    },

    async deleteDocument(scope, documentId) {
      await deleteWhere(await allCollections(), tenantFilter(scope, matchKeyword('document_id', documentId)));
    },

    async deleteChunks(scope, chunkIds) {
      if (chunkIds.length === 0) return;
      const collections = await allCollections();
      const windowCollections = new Set(await windows.all());
      const keyedByChunk = collections.filter((c) => !windowCollections.has(c));
      for (const batch of inBatches(chunkIds, DELETE_BATCH)) {
        await deleteWhere(keyedByChunk, tenantFilter(scope, { has_id: batch.map(pointIdForChunk) }));
        await deleteWhere([...windowCollections], ofChunks(scope, batch));
      }
    },

    searchDense: (scope, model, vector, limit) => searchDenseOf(DENSE_INFIX, scope, model, vector, limit),
    searchLanguageDense: (scope, model, vector, limit) =>
      searchDenseOf(LANGUAGE_DENSE_INFIX, scope, model, vector, limit),
    async scorePassageWindows(scope, model, vector, chunkIds) {
      const collection = await collectionToQuery(WINDOW_DENSE_INFIX, model, vector);
      return collection ? scoreWindowPoints(client, collection, scope, vector, chunkIds) : [];
    },

    async searchSparse(scope, sparse, limit) {
      if (sparse.indices.length === 0) return [];
      await ensureReady();
      return query(base, {
        query: { indices: sparse.indices, values: sparse.values },
        using: SPARSE_VECTOR,
        filter: searchFilter(scope),
        limit,
      });
    },

    async setDocumentFields(scope, documentId, fields) {
      await ensureReady();
      const windowCollections = new Set(await windows.all());
      // Windows are read by chunk id for candidates the other lists found: they need no copy.
      const targets = (await allCollections()).filter((c) => !windowCollections.has(c));
      // Only points whose copy is older: a slower, older write never undoes a newer one.
      const older: Schemas['Filter'] = {
        should: [{ is_empty: { key: 'fields_version' } }, { key: 'fields_version', range: { lt: fields.version } }],
      };
      for (const collection of targets) {
        await client.setPayload(collection, {
          wait: true,
          payload: fieldsPayload(fields),
          filter: tenantFilter(scope, matchKeyword('document_id', documentId), older),
        });
      }
    },

    async countForDocument(documentId) {
      await ensureReady();
      const count = async (collection: string, ...more: Schemas['Condition'][]) =>
        (
          await client.count(collection, {
            exact: true,
            filter: { must: [matchKeyword('document_id', documentId), ...more] },
          })
        ).count;
      // has_sparse: a collection written by an older sluice may also hold points without one.
      const sparse = await count(base, matchKeyword('has_sparse', true));
      let dense = 0;
      for (const collection of (await allCollections()).slice(1)) dense += await count(collection);
      return { dense, sparse };
    },
  };
}
