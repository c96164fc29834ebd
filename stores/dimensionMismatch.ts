import { SluiceError, permanentError } from '../contracts/sluiceError';
import type { EmbeddingModelRef } from './ports';

/**
 * A vector whose length is not its model's dimension is a configuration error (a provider
 * answering with another size than configured, a collection made for another size): retrying
 * cannot fix it, so it is permanent, and it names the model and the store so an operator can.
 */
export function dimensionMismatch(model: EmbeddingModelRef, store: string, detail: string): SluiceError {
  return permanentError(
    'EMBEDDING_DIMENSION_UNSUPPORTED',
    `embedding model ${model.model} (${model.dimension} dimensions), vector store ${store}: ${detail}`,
  );
}

/** Throws dimensionMismatch unless every vector has the model's dimension. */
export function assertVectorsFit(
  model: EmbeddingModelRef,
  store: string,
  records: { chunkId: string; vector: number[] }[],
): void {
  const wrong = records.find((r) => r.vector.length !== model.dimension);
  if (wrong) {
    throw dimensionMismatch(model, store, `the vector of chunk ${wrong.chunkId} has ${wrong.vector.length} dimensions`);
  }
}

/**
 * Runs `op` (an embedding call): a dimension mismatch it found on its own (the provider's answer
 * against the embedding config) is raised again naming the store it was meant for as well.
 */
export async function namingStore<T>(model: EmbeddingModelRef, store: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    if (error instanceof SluiceError && error.code === 'EMBEDDING_DIMENSION_UNSUPPORTED') {
      throw dimensionMismatch(model, store, error.message);
    }
    throw error;
  }
}
