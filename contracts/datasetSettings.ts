import { z } from 'zod';
import { CHUNKING_STRATEGIES, PLAN_REVIEW_MODES, type ChunkingChoice } from './chunkingPlan';
import { searchSettingsSchema } from './searchSettings';

/**
 * A dataset's own settings: one JSON document per (user, dataset), in sections. Each section and
 * field is optional; a missing one means the deployment's default. No zod defaults: the HTTP API's
 * JSON Schema (Ajv, strict) ignores a default inside the nullable patch, so readers apply them.
 * Stored validated, so a reader can trust what it loads.
 */

const tokens = (max: number) => z.number().int().min(8).max(max);

/** Chunk sizes over a strategy's own: any of them, within the bounds the chunker takes. */
const chunkingParametersPatchSchema = z
  .object({
    childTokens: tokens(8192),
    overlapTokens: z.number().int().min(0).max(4096),
    parentTokens: tokens(65536).nullable(),
  })
  .partial()
  .strict()
  .refine((p) => p.overlapTokens === undefined || p.childTokens === undefined || p.overlapTokens * 2 <= p.childTokens, {
    message: 'overlapTokens must be at most half of childTokens',
  });

export const chunkingSettingsSchema = z
  .object({
    /** `auto` (when absent too): the plan recommended after CLEANING from the document's structure. */
    strategy: z.enum(['auto', ...CHUNKING_STRATEGIES]).optional(),
    parameters: chunkingParametersPatchSchema.optional(),
    /** `auto` when absent. */
    review: z.enum(PLAN_REVIEW_MODES).optional(),
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

/**
 * One document's choice, made at upload (or by a reviewer confirming its plan): a strategy and
 * parameters under the same bounds as the dataset's chunking section. It wins over the dataset's.
 */
export const chunkingChoiceSchema = z
  .object({
    strategy: z.enum(CHUNKING_STRATEGIES).optional(),
    parameters: chunkingParametersPatchSchema.optional(),
  })
  .strict() satisfies z.ZodType<ChunkingChoice>;

/** The file types a parser backend is chosen for (the detected type recorded at registration). */
export const PARSED_FILE_TYPES = [
  'pdf',
  'docx',
  'pptx',
  'xlsx',
  'odt',
  'ods',
  'odp',
  'epub',
  'rtf',
  'json',
  'xml',
  'eml',
  'mbox',
  'html',
  'csv',
  'txt',
  'md',
] as const;
export type ParsedFileType = (typeof PARSED_FILE_TYPES)[number];

/** `builtin`: sluice's own parsers (parsers/). `service`: the external parsing service (SLUICE_PARSER_SERVICE_URL). */
export const PARSER_BACKENDS = ['builtin', 'service'] as const;
export type ParserBackend = (typeof PARSER_BACKENDS)[number];

export const parsingSettingsSchema = z
  .object({
    /** Per file type; a type not named uses `builtin`. */
    backends: z.partialRecord(z.enum(PARSED_FILE_TYPES), z.enum(PARSER_BACKENDS)).default({}),
  })
  .strict();

/**
 * What a model adds to the dataset's documents (docs/enrichment.md). Every option needs a model
 * endpoint: CHAT for chunk keywords, questions and table repair (LLM_CONFIG_MISSING without one),
 * VISION for image descriptions (skipped without one).
 */
export const enrichmentSettingsSchema = z
  .object({
    /** PRETOKENIZE: keywords per chunk, indexed with it. */
    chunkKeywords: z.boolean().default(false),
    /** PRETOKENIZE: questions the chunk answers, indexed with it. */
    chunkQuestions: z.boolean().default(false),
    /** CLEANING: each image the parsing service returned is replaced by a vision model's description. */
    imageDescriptions: z.boolean().default(false),
    /** CLEANING: markdown tables a chat model rewrites when their rows do not line up. */
    tableRepair: z.boolean().default(false),
  })
  .strict();

export const datasetSettingsSchema = z
  .object({
    chunking: chunkingSettingsSchema.optional(),
    /** How hybrid search fuses its lists for this dataset (contracts/searchSettings.ts). */
    search: searchSettingsSchema.optional(),
    parsing: parsingSettingsSchema.optional(),
    enrichment: enrichmentSettingsSchema.optional(),
  })
  .strict();

export type DatasetSettings = z.infer<typeof datasetSettingsSchema>;
export type ChunkingSettings = z.infer<typeof chunkingSettingsSchema>;
export type ParsingSettings = z.infer<typeof parsingSettingsSchema>;
export type EnrichmentSettings = z.infer<typeof enrichmentSettingsSchema>;

/** The backend that parses a file of this type in a dataset with these settings. */
export function parserBackendFor(settings: DatasetSettings, fileType: string): ParserBackend {
  const backends: Partial<Record<string, ParserBackend>> = settings.parsing?.backends ?? {};
  return backends[fileType] ?? 'builtin';
}

/**
 * A change to the settings: each section given replaces the stored one, `null` removes it (back to
 * the defaults), and a section not named is kept. A new section is added to both schemas.
 */
export const datasetSettingsPatchSchema = z
  .object({
    chunking: chunkingSettingsSchema.nullable().optional(),
    search: searchSettingsSchema.nullable().optional(),
    parsing: parsingSettingsSchema.nullable().optional(),
    enrichment: enrichmentSettingsSchema.nullable().optional(),
  })
  .strict();

export type DatasetSettingsPatch = z.infer<typeof datasetSettingsPatchSchema>;
