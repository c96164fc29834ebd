import { z } from 'zod';

/**
 * The two request shapes rerankers speak:
 * - `tei`: Hugging Face text-embeddings-inference, `POST {base}/rerank {query, texts}` answering
 *   `[{index, score}]`;
 * - `cohere`: Cohere's, also Jina's and vLLM's, `POST {base}/rerank {model, query, documents, top_n}`
 *   answering `{results: [{index, relevance_score}]}`.
 * The base URL holds any version prefix (`https://api.cohere.com/v1`, `http://tei:8080`).
 */
export const RERANK_SHAPES = ['tei', 'cohere'] as const;
export type RerankShape = (typeof RERANK_SHAPES)[number];

export function rerankRequestBody(shape: RerankShape, model: string, query: string, texts: string[]): unknown {
  if (shape === 'tei') return { query, texts, raw_scores: false, truncate: true };
  return { model, query, documents: texts, top_n: texts.length, return_documents: false };
}

const teiAnswer = z.array(z.object({ index: z.number().int().min(0), score: z.number() }));
const cohereAnswer = z.object({
  results: z.array(z.object({ index: z.number().int().min(0), relevance_score: z.number() })),
});

/** The reranker's answer was not one of the shapes, or named a text it was not given. */
export class RerankAnswerError extends Error {
  override readonly name = 'RerankAnswerError';
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/**
 * Each text's relevance, by the index it was sent at, on 0..1; null for a text the answer left out.
 * Scores already within 0..1 (TEI's default, Cohere's, Jina's) are kept; an answer with any score
 * outside it carries logits (TEI with raw scores, some vLLM models), and all its scores go through
 * the logistic function, which keeps their order.
 */
export function parseRerankAnswer(shape: RerankShape, answer: unknown, count: number): (number | null)[] {
  let pairs: { index: number; score: number }[];
  if (shape === 'tei') {
    const parsed = teiAnswer.safeParse(answer);
    if (!parsed.success) throw new RerankAnswerError('the reranker answered something other than [{index, score}]');
    pairs = parsed.data;
  } else {
    const parsed = cohereAnswer.safeParse(answer);
    if (!parsed.success)
      throw new RerankAnswerError('the reranker answered something other than {results: [{index, relevance_score}]}');
    pairs = parsed.data.results.map((r) => ({ index: r.index, score: r.relevance_score }));
  }
  const scores: (number | null)[] = Array.from({ length: count }, () => null);
  for (const { index, score } of pairs) {
    if (index >= count) throw new RerankAnswerError(`the reranker scored text ${index} of ${count}`);
    if (scores[index] !== null) throw new RerankAnswerError(`the reranker scored text ${index} twice`);
    if (!Number.isFinite(score)) throw new RerankAnswerError('the reranker answered a score that is not a number');
    scores[index] = score;
  }
  const logits = scores.some((s) => s !== null && (s < 0 || s > 1));
  return logits ? scores.map((s) => (s === null ? null : sigmoid(s))) : scores;
}
