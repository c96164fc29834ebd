import type { SparseVector } from '../../contracts/chunk';
import type { CpuPool } from '../../cpuPool/pool';
import type { BgeEmbedders } from '../../embedders/bgeEmbedder';
import { BGE_LANGUAGES } from '../../embedders/bgeModelFiles';
import { embedWithWindows } from '../../embedders/embedWithWindows';
import type { Embedder } from '../../embedders/embedder';
import type { KeywordIndex, TenantScope, VectorStore } from '../../stores/ports';
import { textLanguage } from '../../tokenizer/textLanguage';
import type { ParsedDoc } from './corpus';

/**
 * PRETOKENIZE, SPARSE_VECTORIZING and KEYWORD_INDEXING for a parsed corpus, through the same CPU
 * pool tasks and store calls as the stages (without the task bookkeeping around them). Every
 * keyword index given gets the same entries: the local profile's Postgres FTS and the production
 * profile's OpenSearch BM25 are measured on identical input.
 */
export async function indexLexical(
  cpu: CpuPool,
  stores: { vectors: VectorStore; keywordIndexes: KeywordIndex[] },
  scope: TenantScope,
  docs: ParsedDoc[],
): Promise<void> {
  for (const index of stores.keywordIndexes) await index.ensureIndex();
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
    const entries = doc.children.map((c) => ({
      chunkId: c.chunkId,
      documentId: doc.documentId,
      fileName: doc.fileName,
      text: c.text,
      tokens: tokensOf(c.chunkId),
    }));
    for (const index of stores.keywordIndexes) {
      // A rerun with other chunking must not leave the previous run's chunks behind.
      await index.deleteDocument(scope, doc.documentId);
      const { failedChunkIds } = await index.bulkIndex(scope, entries);
      if (failedChunkIds.length > 0)
        throw new Error(`a keyword index refused ${failedChunkIds.length} chunks of ${doc.doc.id}`);
    }
  }
}

/**
 * VECTORIZING with one embedder: every child chunk embedded in the configured batch size and
 * upserted under `space` (the embedder's model name, or a variant of it for a lever that
 * changes the embedded text), so several variants live side by side in one store.
 */
export async function indexDense(
  vectors: VectorStore,
  embedder: Embedder,
  space: string,
  scope: TenantScope,
  docs: ParsedDoc[],
  batchSize: number,
  textOf: (doc: ParsedDoc, chunkText: string) => string = (_doc, text) => text,
): Promise<void> {
  for (const doc of docs) {
    for (let i = 0; i < doc.children.length; i += batchSize) {
      const batch = doc.children.slice(i, i + batchSize);
      const embedded = await embedder.embed(batch.map((c) => textOf(doc, c.text)));
      await vectors.upsertDense(
        scope,
        { model: space, dimension: embedder.dimension },
        batch.map((c, j) => ({ chunkId: c.chunkId, documentId: doc.documentId, vector: embedded[j] as number[] })),
      );
    }
  }
}

/**
 * The second dense vector as VECTORIZING writes it (activities/stages/languageVectors.ts): each child
 * embedded by the bge model of its own language, upserted under that model, in the configured
 * batch size.
 */
export async function indexLanguageDense(
  vectors: VectorStore,
  embedders: BgeEmbedders,
  scope: TenantScope,
  docs: ParsedDoc[],
  batchSize: number,
): Promise<void> {
  for (const doc of docs) {
    for (const language of BGE_LANGUAGES) {
      const embedder = embedders.of(language);
      const chunks = doc.children.filter((c) => textLanguage(c.text) === language);
      for (let i = 0; i < chunks.length; i += batchSize) {
        const batch = chunks.slice(i, i + batchSize);
        const model = { model: embedder.model, dimension: embedder.dimension };
        const embedded = await embedWithWindows(
          embedder,
          batch.map((c) => c.text),
        );
        await vectors.upsertLanguageDense(
          scope,
          model,
          batch.map((c, j) => ({
            chunkId: c.chunkId,
            documentId: doc.documentId,
            vector: embedded.vectors[j] as number[],
          })),
        );
        await vectors.upsertPassageWindows(
          scope,
          model,
          batch.map((c, j) => ({ chunkId: c.chunkId, documentId: doc.documentId, vectors: embedded.windows[j] ?? [] })),
        );
      }
    }
  }
}

/** The document's title: its first top-level heading, else its file name. */
export function titleOf(doc: ParsedDoc): string {
  const heading = /^# +(.+)$/m.exec(doc.markdown.slice(0, 20_000));
  return (heading?.[1] ?? doc.fileName).trim();
}
