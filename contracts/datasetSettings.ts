import { z } from 'zod';
import { CHUNKING_STRATEGIES, PLAN_REVIEW_MODES } from './chunkingPlan';

/**
 * A dataset's own settings: one JSON document per (user, dataset), in sections. Each section is
 * optional; a missing one means the deployment's defaults. Stored validated, so a reader can trust
 * what it loads.
 */

const tokens = (max: number) => z.number().int().min(8).max(max);

export const chunkingSettingsSchema = z
  .object({
    /** `auto`: the plan recommended after CLEANING from the document's structure. */
    strategy: z.enum(['auto', ...CHUNKING_STRATEGIES]).default('auto'),
    parameters: z
      .object({
        childTokens: tokens(8192),
        overlapTokens: z.number().int().min(0).max(4096),
        parentTokens: tokens(65536).nullable(),
      })
      .partial()
      .strict()
      .refine(
        (p) => p.overlapTokens === undefined || p.childTokens === undefined || p.overlapTokens * 2 <= p.childTokens,
        {
          message: 'overlapTokens must be at most half of childTokens',
        },
      )
      .optional(),
    review: z.enum(PLAN_REVIEW_MODES).default('auto'),
    /**
     * With review `required`: how long a plan waits for a person before it is confirmed as
     * proposed (a duration like 3d or 12h); absent or null, it waits until someone confirms it.
     */
    autoConfirmAfter: z
      .string()
      .regex(/^\d{1,9} ?(s|m|h|d|seconds?|minutes?|hours?|days?)$/, 'a duration like 3d, 12h or 30 minutes')
      .nullable()
      .optional(),
  })
  .strict();

export const datasetSettingsSchema = z
  .object({
    chunking: chunkingSettingsSchema.optional(),
  })
  .strict();

export type DatasetSettings = z.infer<typeof datasetSettingsSchema>;
export type ChunkingSettings = z.infer<typeof chunkingSettingsSchema>;

/**
 * A change to the settings: each section given replaces the stored one, `null` removes it (back to
 * the defaults), and a section not named is kept. A new section is added to both schemas.
 */
export const datasetSettingsPatchSchema = z
  .object({
    chunking: chunkingSettingsSchema.nullable().optional(),
  })
  .strict();

export type DatasetSettingsPatch = z.infer<typeof datasetSettingsPatchSchema>;
