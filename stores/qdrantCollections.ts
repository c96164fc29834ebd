import { createHash } from 'node:crypto';
import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import { dimensionMismatch } from './dimensionMismatch';
import type { EmbeddingModelRef } from './ports';
import { DENSE_VECTOR, INDEXED_FIELDS, SPARSE_VECTOR } from './qdrantSupport';

/**
 * The collections of one sluice deployment, all named from its base name (QDRANT_COLLECTION):
 *
 * - `<base>` holds the sparse vectors (they come from the token plan, not from a model);
 * - `<base>__dense__<model slug>_<dimension>_<hash>` holds the dense vectors of one embedding
 *   model at one dimension, one collection per (model, dimension), created on first use.
 *
 * Why a collection per model rather than one named vector per model in one collection:
 * - Qdrant fixes a collection's named vectors when it is created; a tenant configuring a new
 *   model (or a new dimension of one, like OpenAI's `dimensions`) would need a new collection
 *   and a copy of every point anyway. Here it needs only a new, empty collection.
 * - Collection count: one per model in use, plus one. A deployment has a handful of models, not
 *   one per tenant (tenants share a collection through the `is_tenant` index on user_id), so the
 *   per-collection overhead (segments, WAL, optimizer threads) stays small.
 * - Snapshot and backup: snapshots are per collection, so a backup snapshots every collection
 *   of the base name (docs/qdrant.md); the upside is that a model no longer used is dropped,
 *   snapshotted or restored on its own without touching the others.
 * - Sharding: shard and replica counts are per collection, so the model that holds most
 *   vectors can be sharded wider than the rest; a point's model moves are cross-collection
 *   writes (upsert in the new one, delete in the old ones), which sluice makes idempotent.
 */
export const DENSE_INFIX = '__dense__';
/**
 * The second dense vector (the chunk language's model, e.g. bge-small-zh) in collections of its
 * own, `<base>__langdense__<model slug>_<dimension>_<hash>`: a chunk has a point in one first-vector
 * collection and one second-vector collection, and writing either moves only within its kind.
 */
export const LANGUAGE_DENSE_INFIX = '__langdense__';
/**
 * The second dense vector's passage windows (chunker/passageWindows.ts), `<base>__window__<model…>`:
 * several points per chunk, each keyed by its window and carrying its chunk in the payload.
 */
export const WINDOW_DENSE_INFIX = '__window__';
export type DenseInfix = typeof DENSE_INFIX | typeof LANGUAGE_DENSE_INFIX | typeof WINDOW_DENSE_INFIX;

/** The collection of one (model, dimension): readable, within Qdrant's name rules, unique per exact model name. */
export function denseCollectionName(base: string, model: EmbeddingModelRef, infix: DenseInfix = DENSE_INFIX): string {
  const slug =
    model.model
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 48) || 'model';
  const hash = createHash('sha256').update(model.model, 'utf8').digest('hex').slice(0, 8);
  return `${base}${infix}${slug}_${model.dimension}_${hash}`;
}

/** Every dense collection of the deployment of one kind: the ones a delete or a model move must reach. */
export async function listDenseCollections(
  client: QdrantClient,
  base: string,
  infix: DenseInfix = DENSE_INFIX,
): Promise<string[]> {
  const { collections } = await client.getCollections();
  return collections.map((c) => c.name).filter((name) => name.startsWith(`${base}${infix}`));
}

/** The named vectors of a collection, whichever way the server reports them. */
function namedVectors(info: Schemas['CollectionInfo']): Record<string, Schemas['VectorParams'] | undefined> {
  const vectors = info.config.params.vectors;
  return vectors && !('size' in vectors && typeof vectors.size === 'number')
    ? (vectors as Record<string, Schemas['VectorParams'] | undefined>)
    : {};
}

/** What a collection of this model must be: its dimension, or the model's vectors cannot be written or searched. */
function denseProblem(info: Schemas['CollectionInfo'], name: string, model: EmbeddingModelRef): Error | null {
  const dense = namedVectors(info)[DENSE_VECTOR];
  if (!dense) return new Error(`Qdrant collection ${name} has no named dense vector "${DENSE_VECTOR}"`);
  if (dense.size !== model.dimension) {
    return dimensionMismatch(
      model,
      `Qdrant collection ${name}`,
      `the collection holds ${dense.size}-dimensional vectors`,
    );
  }
  if (dense.distance !== 'Cosine') {
    return new Error(
      `Qdrant collection ${name} uses ${dense.distance} distance for "${DENSE_VECTOR}", expected Cosine`,
    );
  }
  return null;
}

function sparseProblem(info: Schemas['CollectionInfo'], name: string): Error | null {
  const sparse = info.config.params.sparse_vectors?.[SPARSE_VECTOR];
  if (!sparse) return new Error(`Qdrant collection ${name} has no named sparse vector "${SPARSE_VECTOR}"`);
  if (sparse.modifier !== 'idf') {
    return new Error(`Qdrant collection ${name}: sparse vector "${SPARSE_VECTOR}" must use modifier idf`);
  }
  return null;
}

/**
 * Creates the collection if missing and the payload indexes every filter uses, then checks it
 * is the collection we need. Several workers may run this at once for the same collection: a
 * create or an index that loses the race is fine as long as the winner's result is there.
 */
async function ensure(
  client: QdrantClient,
  name: string,
  create: Schemas['CreateCollection'],
  problemOf: (info: Schemas['CollectionInfo']) => Error | null,
): Promise<void> {
  if (!(await client.collectionExists(name)).exists) {
    try {
      await client.createCollection(name, create);
    } catch (err) {
      if (!(await client.collectionExists(name)).exists) throw err;
    }
  }
  const info = await client.getCollection(name);
  const problem = problemOf(info);
  if (problem) throw problem;
  for (const field of INDEXED_FIELDS) {
    if (info.payload_schema[field]) continue;
    try {
      await client.createPayloadIndex(name, {
        wait: true,
        field_name: field,
        field_schema: field === 'user_id' ? { type: 'keyword', is_tenant: true } : 'keyword',
      });
    } catch (err) {
      if (!(await client.getCollection(name)).payload_schema[field]) throw err;
    }
  }
}

export function ensureSparseCollection(client: QdrantClient, name: string): Promise<void> {
  return ensure(client, name, { sparse_vectors: { [SPARSE_VECTOR]: { modifier: 'idf' } } }, (info) =>
    sparseProblem(info, name),
  );
}

export function ensureDenseCollection(client: QdrantClient, name: string, model: EmbeddingModelRef): Promise<void> {
  return ensure(client, name, { vectors: { [DENSE_VECTOR]: { size: model.dimension, distance: 'Cosine' } } }, (info) =>
    denseProblem(info, name, model),
  );
}
