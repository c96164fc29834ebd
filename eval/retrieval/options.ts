import { CHUNKING_STRATEGIES, type ChunkingStrategy } from '../../contracts/chunkingPlan';
import { RERANK_SHAPES, type RerankShape } from '../../rerank/rerankProtocol';
import type { EvalChunking, Language } from './corpus';

export interface Options {
  ci: boolean;
  /** Fails the run when the search default's recall@5 over the run's questions is below the floor in a language. */
  floors: Partial<Record<Language, number>>;
  /** Chunk size experiment: another child size than the configured one (labels may then be cut). */
  chunkMaxTokens: number | null;
  /** Chunk size per strategy: the child size a strategy's plan is run with instead of its own. */
  childTokens: Partial<Record<ChunkingStrategy, number>>;
  /** Each document under its recommended plan (what a default dataset does), or all under `general`. */
  chunking: EvalChunking;
  /** A reranker to measure over the search default's candidates (keyless: a local TEI, vLLM or the like). */
  reranker: { url: string; shape: RerankShape; model: string; candidates: number } | null;
  out: string;
}

/**
 * `--ci`, `--min-recall=en:0.7,zh:0.7`, `--chunk-max-tokens=N`,
 * `--child-tokens=table:100,qa:256`, `--chunking=recommended|general`, `--out=name.json`,
 * `--reranker=URL` with `--reranker-shape=tei|cohere`, `--reranker-model=NAME` and
 * `--reranker-candidates=N` (50).
 */
export function parseArgs(argv: string[]): Options {
  const value = (name: string): string | undefined =>
    argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const ci = argv.includes('--ci');
  const floors: Partial<Record<Language, number>> = {};
  for (const part of (value('min-recall') ?? '').split(',').filter(Boolean)) {
    const [language, floor] = part.split(':');
    if ((language !== 'en' && language !== 'zh') || floor === undefined || Number.isNaN(Number(floor)))
      throw new Error(`--min-recall: expected en:<n>,zh:<n>, got ${part}`);
    floors[language] = Number(floor);
  }
  const size = value('chunk-max-tokens');
  const chunkMaxTokens = size === undefined ? null : Number(size);
  if (chunkMaxTokens !== null && !(chunkMaxTokens >= 16)) throw new Error('--chunk-max-tokens: at least 16');
  const childTokens: Partial<Record<ChunkingStrategy, number>> = {};
  for (const part of (value('child-tokens') ?? '').split(',').filter(Boolean)) {
    const [strategy, tokens] = part.split(':');
    if (!CHUNKING_STRATEGIES.includes(strategy as ChunkingStrategy) || !(Number(tokens) >= 16))
      throw new Error(`--child-tokens: expected <strategy>:<tokens of at least 16>, got ${part}`);
    childTokens[strategy as ChunkingStrategy] = Number(tokens);
  }
  const chunking = value('chunking') ?? 'recommended';
  if (chunking !== 'recommended' && chunking !== 'general')
    throw new Error(`--chunking: expected recommended or general, got ${chunking}`);
  const rerankerUrl = value('reranker');
  let reranker: Options['reranker'] = null;
  if (rerankerUrl !== undefined) {
    const shape = value('reranker-shape') ?? 'tei';
    if (!RERANK_SHAPES.includes(shape as RerankShape))
      throw new Error(`--reranker-shape: expected ${RERANK_SHAPES.join(' or ')}, got ${shape}`);
    const candidates = Number(value('reranker-candidates') ?? 50);
    if (!(candidates >= 1 && candidates <= 200)) throw new Error('--reranker-candidates: 1 to 200');
    reranker = {
      url: rerankerUrl,
      shape: shape as RerankShape,
      model: value('reranker-model') ?? 'reranker',
      candidates,
    };
  }
  const stem = [
    ci ? 'retrieval-ci' : 'retrieval',
    ...(chunkMaxTokens ? [`chunk${chunkMaxTokens}`] : []),
    ...Object.entries(childTokens).map(([strategy, tokens]) => `${strategy}${tokens}`),
    ...(chunking === 'general' ? ['general'] : []),
    ...(reranker ? ['reranked'] : []),
  ].join('-');
  return { ci, floors, chunkMaxTokens, childTokens, chunking, reranker, out: value('out') ?? `${stem}.json` };
}
