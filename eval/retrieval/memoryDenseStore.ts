import { windowId } from '../../chunker/passageWindows';
import type {
  DenseRecord,
  EmbeddingModelRef,
  PassageWindowRecord,
  SearchHit,
  TenantScope,
  VectorStore,
} from '../../stores/ports';

/**
 * The eval's dense vectors, both the first and the second (the bge model of the chunk's language),
 * held in memory and searched exactly (cosine, ties by chunk id): the local profile's Postgres
 * store returns the same top 10 up to its HNSW index's recall against the exact scan, which
 * bench:dense-recall measures on this eval's questions. Several dense spaces live side by side here
 * (a real store keeps one model per chunk). Sparse vectors and everything else go to the real store.
 */
export function withMemoryDense(store: VectorStore): VectorStore {
  const spaces = new Map<string, Map<string, number[]>>();
  const key = (scope: TenantScope, model: EmbeddingModelRef, vector: 'first' | 'second' | 'window'): string =>
    `${scope.userId}\u0000${scope.datasetId}\u0000${vector}\u0000${model.model}\u0000${model.dimension}`;
  const norm = (v: readonly number[]): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  /** Cosine of `v` with the query `vector` whose norm is `q`. */
  const cosine = (v: readonly number[], vector: readonly number[], q: number): number => {
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += (v[i] ?? 0) * (vector[i] ?? 0);
    const denominator = norm(v) * q;
    return denominator === 0 ? 0 : dot / denominator;
  };
  const upsert = (spaceKey: string, records: DenseRecord[]): void => {
    const space = spaces.get(spaceKey) ?? new Map<string, number[]>();
    for (const r of records) space.set(r.chunkId, r.vector);
    spaces.set(spaceKey, space);
  };
  const search = (spaceKey: string, vector: number[], limit: number): SearchHit[] => {
    const space = spaces.get(spaceKey);
    if (!space) return [];
    const q = norm(vector);
    const hits: SearchHit[] = [];
    for (const [chunkId, v] of space) hits.push({ chunkId, score: cosine(v, vector, q) });
    return hits.sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId)).slice(0, limit);
  };
  // A chunk's windows are rows `<chunk>#<n>`, read by chunk id; each chunk scores its best.
  const upsertWindows = (spaceKey: string, records: PassageWindowRecord[]): void => {
    const space = spaces.get(spaceKey) ?? new Map<string, number[]>();
    for (const r of records) r.vectors.forEach((v, i) => space.set(windowId(r.chunkId, i), v));
    spaces.set(spaceKey, space);
  };
  const scoreWindows = (spaceKey: string, vector: number[], chunkIds: string[]): SearchHit[] => {
    const space = spaces.get(spaceKey);
    const q = norm(vector);
    const best = new Map<string, number>();
    for (const chunkId of chunkIds) {
      for (let i = 0; space?.has(windowId(chunkId, i)); i++) {
        const score = cosine(space.get(windowId(chunkId, i)) as number[], vector, q);
        if (score > (best.get(chunkId) ?? -Infinity)) best.set(chunkId, score);
      }
    }
    return [...best]
      .map(([chunkId, score]) => ({ chunkId, score }))
      .sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
  };
  return {
    ...store,
    name: `${store.name} (dense in memory)`,
    async upsertDense(scope, model, records) {
      upsert(key(scope, model, 'first'), records);
    },
    async upsertLanguageDense(scope, model, records) {
      upsert(key(scope, model, 'second'), records);
    },
    async upsertPassageWindows(scope, model, records) {
      upsertWindows(key(scope, model, 'window'), records);
    },
    async scorePassageWindows(scope, model, vector, chunkIds) {
      return scoreWindows(key(scope, model, 'window'), vector, chunkIds);
    },
    async searchDense(scope, model, vector, limit) {
      return search(key(scope, model, 'first'), vector, limit);
    },
    async searchLanguageDense(scope, model, vector, limit) {
      return search(key(scope, model, 'second'), vector, limit);
    },
  };
}
