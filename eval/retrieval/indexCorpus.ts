import type { SparseVector } from '../../contracts/chunk';
import type { CpuPool } from '../../cpuPool/pool';
import type { Embedder } from '../../embedders/embedder';
import type { KeywordIndex, TenantScope, VectorStore } from '../../stores/ports';
import { fileNameOf, type ParsedDoc } from './corpus';

/**
 * PRETOKENIZE, SPARSE_VECTORIZING and KEYWORD_INDEXING for a parsed corpus, through the same CPU
 * pool tasks and store calls as the stages (without the task bookkeeping around them).
 */
export async function indexLexical(
  cpu: CpuPool,
  stores: { vectors: VectorStore; keywords: KeywordIndex },
  scope: TenantScope,
  docs: ParsedDoc[],
): Promise<void> {
  await stores.keywords.ensureIndex();
  for (const doc of docs) {
    const plan = new Map(await cpu.tokenize(doc.children.map((c) => ({ chunk_id: c.chunkId, text: c.text }))));
    const tokensOf = (chunkId: string): string[] => plan.get(chunkId) ?? [];
    const sparse = await cpu.sparse(doc.children.map((c) => tokensOf(c.chunkId)));
    await stores.vectors.upsertSparse(
      scope,
      doc.children.map((c, i) => ({
        chunkId: c.chunkId,
        documentId: doc.documentId,
        sparse: sparse[i] as SparseVector,
      })),
    );
    const { failedChunkIds } = await stores.keywords.bulkIndex(
      scope,
      doc.children.map((c) => ({
        chunkId: c.chunkId,
        documentId: doc.documentId,
        fileName: fileNameOf(doc.doc),
        text: c.text,
        tokens: tokensOf(c.chunkId),
      })),
    );
    if (failedChunkIds.length > 0)
      throw new Error(`the keyword index refused ${failedChunkIds.length} chunks of ${doc.doc.id}`);
  }
}

/**
 * VECTORIZING with one embedder: every child chunk embedded in the configured batch size and
 * upserted. Chunk ids key the dense rows, so a second embedder's run replaces the first's vectors.
 */
export async function indexDense(
  vectors: VectorStore,
  embedder: Embedder,
  scope: TenantScope,
  docs: ParsedDoc[],
  batchSize: number,
): Promise<void> {
  for (const doc of docs) {
    for (let i = 0; i < doc.children.length; i += batchSize) {
      const batch = doc.children.slice(i, i + batchSize);
      const embedded = await embedder.embed(batch.map((c) => c.text));
      await vectors.upsertDense(
        scope,
        { model: embedder.model, dimension: embedder.dimension },
        batch.map((c, j) => ({ chunkId: c.chunkId, documentId: doc.documentId, vector: embedded[j] as number[] })),
      );
    }
  }
}
