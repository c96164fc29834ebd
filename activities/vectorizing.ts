import type { StageInput, StageResult } from '../contracts/ingest';
import { listPendingChunkTexts, markDenseEmbedded, type ChunkText } from '../db/repositories/chunks';
import { listChunksLackingADenseVector } from '../db/repositories/languageDenseChunks';
import type { Embedder } from '../embedders/embedder';
import { dimensionMismatch, namingStore } from '../stores/dimensionMismatch';
import type { ActivityDeps } from './deps';
import { embedLanguageBatch } from './languageVectors';
import { forEachPendingBatch } from './pendingBatches';
import { runStage } from './stageTemplate';
import { orTransient } from './transient';

/**
 * VECTORIZING: embed every active chunk whose dense_status is not SUCCESS, batch by batch, and
 * with the second dense vector on, every one whose language_dense_status is not SUCCESS as well.
 * Each batch is upserted and marked before the next starts, so a crash loses at most one
 * batch of work and no chunk that succeeded is embedded again.
 */
const PAGE = 512;

async function embedBatch(
  deps: ActivityDeps,
  embedder: Embedder,
  scope: { userId: string; datasetId: string },
  documentId: string,
  batch: ChunkText[],
): Promise<void> {
  const model = { model: embedder.model, dimension: embedder.dimension };
  const vectors = await namingStore(model, deps.vectors.name, () =>
    orTransient('VECTORIZING_FAILED', 'embedding', () => embedder.embed(batch.map((c) => c.text))),
  );
  const wrong = vectors.find((v) => v.length !== embedder.dimension);
  if (vectors.length !== batch.length || wrong) {
    throw dimensionMismatch(
      model,
      deps.vectors.name,
      `the provider returned ${vectors.length} vectors of ${wrong?.length ?? embedder.dimension} dimensions for ${batch.length} texts`,
    );
  }
  const records = batch.map((c, i) => ({ chunkId: c.chunk_id, documentId, vector: vectors[i] as number[] }));
  // A store's own refusal (a collection of another dimension) is classified; its outage is transient.
  await orTransient('VECTORIZING_FAILED', 'dense upsert', () => deps.vectors.upsertDense(scope, model, records));
  await markDenseEmbedded(
    deps.db,
    records.map((r) => r.chunkId),
    model,
  );
}

export function createVectorizingActivity(deps: ActivityDeps) {
  return async function vectorizing(input: StageInput): Promise<StageResult> {
    return runStage(deps, input, 'VECTORIZING', async () => {
      const embedder = await deps.embedders.forUser(input.userId);
      const scope = { userId: input.userId, datasetId: input.datasetId };
      // Chunks are read a page at a time and embedded a batch at a time: one query per page,
      // while every batch is still upserted and marked before the next one is embedded.
      const { languageEmbedders } = deps;
      const pageSize = Math.max(PAGE, deps.settings.embedBatchSize);
      const batchSize = deps.settings.embedBatchSize;
      if (!languageEmbedders) {
        const pages = {
          pageSize,
          batchSize,
          readPage: (afterIndex: number, limit: number) =>
            listPendingChunkTexts(deps.db, input.documentId, 'dense_status', afterIndex, limit),
        };
        return forEachPendingBatch(pages, async (batch) => {
          await embedBatch(deps, embedder, scope, input.documentId, batch);
          return batch.length;
        });
      }
      const pages = {
        pageSize,
        batchSize,
        readPage: (afterIndex: number, limit: number) =>
          listChunksLackingADenseVector(deps.db, input.documentId, afterIndex, limit),
      };
      return forEachPendingBatch(pages, async (batch) => {
        const first = batch.filter((c) => c.dense_status !== 'SUCCESS');
        if (first.length > 0) await embedBatch(deps, embedder, scope, input.documentId, first);
        const second = batch.filter((c) => c.language_dense_status !== 'SUCCESS');
        await embedLanguageBatch(deps, languageEmbedders, scope, input.documentId, second);
        return batch.length;
      });
    });
  };
}
