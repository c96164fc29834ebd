/**
 * Which model the embedded default runs and the size of its vectors: what configuration must know
 * of it (to check SLUICE_EMBED_DIMENSION) without loading anything of the embedder.
 */
export const LOCAL_MODEL_IDENTITY = {
  name: 'use-multilingual-v3-int8',
  /** The model's fixed output size; its vectors come out L2-normalised. */
  dimension: 512,
} as const;

/** The languages that have a model of their own for the second dense vector (embedders/bgeEmbedder.ts). */
export type TextLanguage = 'en' | 'zh';

/**
 * The second dense vector's models, one per language: BAAI's bge-small v1.5 (MIT), int8 ONNX,
 * installed by `bash scripts/stack.sh start` (scripts/stack/bge.sh). Their vectors are CLS-pooled
 * and L2-normalised here; a query gets the model's retrieval instruction in front.
 */
export const BGE_MODEL_IDENTITIES = {
  en: {
    name: 'bge-small-en-v1.5-int8',
    dimension: 384,
    queryPrefix: 'Represent this sentence for searching relevant passages: ',
  },
  zh: { name: 'bge-small-zh-v1.5-int8', dimension: 512, queryPrefix: '为这个句子生成表示以用于检索相关文章：' },
} as const satisfies Record<TextLanguage, { name: string; dimension: number; queryPrefix: string }>;
