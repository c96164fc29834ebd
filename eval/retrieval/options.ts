import { CHUNKING_STRATEGIES, type ChunkingStrategy } from '../../contracts/chunkingPlan';
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
  out: string;
}

/**
 * `--ci`, `--min-recall=en:0.7,zh:0.7`, `--chunk-max-tokens=N`,
 * `--child-tokens=table:100,qa:256`, `--chunking=recommended|general`, `--out=name.json`.
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
  const stem = [
    ci ? 'retrieval-ci' : 'retrieval',
    ...(chunkMaxTokens ? [`chunk${chunkMaxTokens}`] : []),
    ...Object.entries(childTokens).map(([strategy, tokens]) => `${strategy}${tokens}`),
    ...(chunking === 'general' ? ['general'] : []),
  ].join('-');
  return { ci, floors, chunkMaxTokens, childTokens, chunking, out: value('out') ?? `${stem}.json` };
}
