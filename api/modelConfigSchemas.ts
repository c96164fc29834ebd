import { z } from 'zod';
import { MODEL_PURPOSES } from '../client/modelConfigs';
import { RERANK_SHAPES } from '../rerank/rerankProtocol';

/** The /v1/model-configs routes' shapes (api/routes/modelConfigs.ts). */

export const modelPurposeParams = z.object({
  purpose: z
    .enum(MODEL_PURPOSES)
    .describe('chat: keywords, questions, table repair; vision: image descriptions; rerank: search results'),
});

export const modelConfigSchema = z.object({
  purpose: z.enum(MODEL_PURPOSES),
  baseUrl: z
    .string()
    .describe('the OpenAI-compatible endpoint whose /chat/completions is called; for a reranker, the base of /rerank'),
  model: z.string(),
  apiKey: z
    .string()
    .nullable()
    .describe('masked: at most the last 4 characters; null when none is stored. The key itself is never returned'),
  apiShape: z.enum(RERANK_SHAPES).nullable().describe("a reranker's request shape; null for chat and vision"),
  updatedAt: z.string(),
});

export const modelConfigResponse = z.object({
  config: modelConfigSchema
    .nullable()
    .describe(
      'null: the caller has none; a dataset asking for a CHAT enrichment then fails LLM_CONFIG_MISSING, image descriptions are skipped',
    ),
});

export const modelConfigBody = z.object({
  baseUrl: z.string().min(1).max(2000).describe('an http(s) URL of an OpenAI-compatible API'),
  model: z.string().min(1).max(200),
  apiKey: z.string().min(1).max(4096).optional().describe('write-only; omit it to keep the stored key'),
  apiShape: z
    .enum(RERANK_SHAPES)
    .optional()
    .describe("a reranker's request shape, required for one: tei (TEI) or cohere (Cohere, Jina, vLLM)"),
});

export const modelTestResult = z.object({ ok: z.boolean(), model: z.string(), message: z.string() });
