import { z } from 'zod';
import { CHUNKING_STRATEGIES, type ChunkingPlan } from './chunkingPlan';

const tokens = (max: number) => z.number().int().min(8).max(max);

/** A chunking plan as callers send it (a rebuild's new plan): the bounds of the dataset settings. */
export const ChunkingPlanSchema = z
  .strictObject({
    strategy: z.enum(CHUNKING_STRATEGIES),
    parameters: z.strictObject({
      childTokens: tokens(8192),
      overlapTokens: z.number().int().min(0).max(4096),
      parentTokens: tokens(65536).nullable(),
    }),
    reason: z.string().max(300),
  })
  .refine((p) => p.parameters.overlapTokens * 2 <= p.parameters.childTokens, {
    message: 'overlapTokens must be at most half of childTokens',
    path: ['parameters', 'overlapTokens'],
  }) satisfies z.ZodType<ChunkingPlan>;
