import type { Command } from 'commander';
import type { ChunkingChoice } from '../contracts/chunkingPlan';
import { generalParametersOf, uploadChoiceProblem, type DatasetChunking } from '../chunker/uploadChoice';
import { chunkingChoiceSchema } from '../contracts/datasetSettings';

export interface ChunkingChoiceOptions {
  strategy?: string;
  childTokens?: number;
  overlapTokens?: number;
  parentTokens?: number;
}

/** The options an upload takes to choose its own chunking (over the dataset's settings). */
export function withChunkingChoiceOptions(command: Command): Command {
  return command
    .option('--strategy <strategy>', "this document's chunking strategy: general, qa, table, page or one")
    .option('--child-tokens <n>', 'child chunk size in tokens', Number)
    .option('--overlap-tokens <n>', 'overlap between children in tokens', Number)
    .option('--parent-tokens <n>', 'parent size in tokens', Number);
}

/** The size options the user gave, and only those: an absent one keeps the plan's own value. */
export function givenParameters(opts: {
  childTokens?: number;
  overlapTokens?: number;
  parentTokens?: number;
}): Partial<Record<'childTokens' | 'overlapTokens' | 'parentTokens', number>> {
  return Object.fromEntries(
    Object.entries({
      childTokens: opts.childTokens,
      overlapTokens: opts.overlapTokens,
      parentTokens: opts.parentTokens,
    }).filter(([, v]) => v !== undefined),
  );
}

/**
 * The choice the options make, checked by the schema a dataset's chunking settings use; undefined
 * when they name nothing. A choice outside the bounds, alone or merged with the strategy's
 * parameters, is an Error saying which option is wrong.
 */
export function chunkingChoiceOf(
  opts: ChunkingChoiceOptions,
  chunking: { maxTokens: number; overlapTokens: number },
  dataset: DatasetChunking | null = null,
): ChunkingChoice | undefined {
  const parameters = givenParameters(opts);
  if (opts.strategy === undefined && Object.keys(parameters).length === 0) return undefined;
  const parsed = chunkingChoiceSchema.safeParse({
    ...(opts.strategy === undefined ? {} : { strategy: opts.strategy }),
    ...(Object.keys(parameters).length > 0 ? { parameters } : {}),
  });
  if (parsed.success) {
    // Checked merged with the parameters the plan lays it over (the dataset's own included), so it
    // is refused now, not at CHUNKING.
    const problem = uploadChoiceProblem(parsed.data, generalParametersOf(chunking), dataset);
    if (problem) throw new Error(`PLAN_VALIDATION_FAILED: ${problem}`);
    return parsed.data;
  }
  throw new Error(
    `PLAN_VALIDATION_FAILED: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
  );
}
