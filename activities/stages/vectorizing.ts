import type { StageInput, StageResult } from '../../contracts/ingest';
import { markDenseReused, reusableVectors } from '../../db/repositories/reusableVectors';
import { chargePassageWindows } from './windowQuota';
import { windowsPerChild } from '../../chunker/passageWindows';
import {
  countChunks,
  listPendingChunkTexts,
  markDenseEmbedded,
  type ChunkSet,
  type ChunkText,
} from '../../db/repositories/chunks';
import { listChunksLackingADenseVector } from '../../db/repositories/languageDenseChunks';
import type { Embedder } from '../../embedders/embedder';
import { dimensionMismatch, namingStore } from '../../stores/dimensionMismatch';
import type { ActivityDeps } from '../deps';
import { refreshCopiedFields } from './copyFields';
import { embedLanguageBatch, reuseLanguageVectors } from './languageVectors';
import { forEachPendingBatch } from './pendingBatches';
import { runStage } from './stageTemplate';
import { orTransient } from '../transient';

/**
 * VECTORIZING: embed every active chunk of the task's set whose dense_status is not SUCCESS,
 * batch by batch, and with the second dense vector on, every one whose language_dense_status is
 * not SUCCESS as well. Each batch is upserted and marked before the next starts, so a crash loses at
 * most one batch of work and no chunk that succeeded is embedded again. A rebuild first copies
 * the vectors of chunks whose text an older generation already embedded with the same model
 * (reuseVectors, and reuseLanguageVectors for the second vector and its windows): only changed
 * text reaches the embedder.
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

/**
 * Copies the vectors of the set's pending chunks that an older generation of the document embedded
 * with the same model and text hash, and marks them (vector_reused). Idempotent: a chunk already
 * SUCCESS is not offered again. Returns how many got a copied vector.
 */
async function reuseVectors(
  deps: ActivityDeps,
  scope: { userId: string; datasetId: string },
  set: ChunkSet,
  model: { model: string; dimension: number },
): Promise<number> {
  const reusable = await reusableVectors(deps.db, set, model);
  if (reusable.length === 0) return 0;
  const copies = reusable.map((r) => ({ ...r, documentId: set.documentId }));
  const copied = await orTransient('VECTORIZING_FAILED', 'copying reused vectors', () =>
    deps.vectors.copyDense(scope, model, copies),
  );
  return markDenseReused(deps.db, copied, model);
}

export function createVectorizingActivity(deps: ActivityDeps) {
  return async function vectorizing(input: StageInput): Promise<StageResult> {
    return runStage(deps, input, 'VECTORIZING', async (started) => {
      const embedder = await deps.embedders.forUser(input.userId);
      const scope = { userId: input.userId, datasetId: input.datasetId };
      const set = { documentId: input.documentId, generation: started.chunkGeneration };
      const model = { model: embedder.model, dimension: embedder.dimension };
      const { languageEmbedders } = deps;
      const reused =
        (await reuseVectors(deps, scope, set, model)) +
        (languageEmbedders ? await reuseLanguageVectors(deps, languageEmbedders, scope, set) : 0);
      // Chunks are read a page at a time and embedded a batch at a time: one query per page,
      // while every batch is still upserted and marked before the next one is embedded.
      const pageSize = Math.max(PAGE, deps.settings.embedBatchSize);
      const batchSize = deps.settings.embedBatchSize;
      // The document's windows are capped as a whole: each child's share, fixed for the whole stage.
      const chunks = languageEmbedders
        ? (await countChunks(deps.db, input.documentId, started.chunkGeneration)).active
        : 0;
      const perChunk = languageEmbedders ? windowsPerChild(chunks, deps.settings.maxWindowsPerDocument) : 0;
      if (languageEmbedders && deps.settings.passageWindows) await chargePassageWindows(deps, input, chunks, perChunk);
      const embedded = languageEmbedders
        ? await forEachPendingBatch(
            {
              pageSize,
              batchSize,
              readPage: (afterIndex: number, limit: number) =>
                listChunksLackingADenseVector(deps.db, set, afterIndex, limit),
            },
            async (batch) => {
              const first = batch.filter((c) => c.dense_status !== 'SUCCESS');
              if (first.length > 0) await embedBatch(deps, embedder, scope, input.documentId, first);
              const second = batch.filter((c) => c.language_dense_status !== 'SUCCESS');
              await embedLanguageBatch(deps, languageEmbedders, scope, input.documentId, second, perChunk);
              return batch.length;
            },
          )
        : await forEachPendingBatch(
            {
              pageSize,
              batchSize,
              readPage: (afterIndex: number, limit: number) =>
                listPendingChunkTexts(deps.db, set, 'dense_status', afterIndex, limit),
            },
            async (batch) => {
              await embedBatch(deps, embedder, scope, input.documentId, batch);
              return batch.length;
            },
          );
      // Points written without the document's fields get them (a store that joins Postgres keeps none).
      await refreshCopiedFields(deps, 'vectors', scope, input.documentId, null);
      return reused + embedded;
    });
  };
}
