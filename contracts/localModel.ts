/**
 * Which model the embedded default runs and the size of its vectors: what configuration must know
 * of it (to check SLUICE_EMBED_DIMENSION) without loading anything of the embedder.
 */
export const LOCAL_MODEL_IDENTITY = {
  name: 'use-multilingual-v3-int8',
  /** The model's fixed output size; its vectors come out L2-normalised. */
  dimension: 512,
} as const;
