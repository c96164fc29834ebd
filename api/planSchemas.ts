import { z } from 'zod';
import { CHUNKING_STRATEGIES, PLAN_REVIEW_MODES, PLAN_STATES, type ChunkingChoice } from '../contracts/chunkingPlan';
import { chunkingChoiceSchema } from '../contracts/datasetSettings';
import { uploadChoiceProblem, type DatasetChunking } from '../chunker/uploadChoice';
import type { ChunkingParameters } from '../contracts/chunkingPlan';
import { ApiError } from './errors';

/**
 * The chunking plan as the HTTP API shows it and takes a choice over it (issue 24). The choice is
 * checked by the one schema a dataset's chunking settings use (contracts/datasetSettings.ts).
 */

/** An upload's own chunking choice, as query parameters (the body is the multipart file). */
export const uploadChoiceQuery = z.object({
  strategy: z.enum(CHUNKING_STRATEGIES).optional().describe("this document's strategy, over the dataset's"),
  childTokens: z.number().int().optional().describe('child chunk size in tokens'),
  overlapTokens: z.number().int().optional().describe('tokens a child repeats from the one before it'),
  parentTokens: z.number().int().optional().describe('parent size in tokens (left out: the whole section)'),
  metadata: z
    .string()
    .max(16_384)
    .optional()
    .describe(
      'the document\'s metadata as JSON (an object of strings, numbers, booleans and lists of strings; docs/search.md, "Metadata"); a single upload may send it as a multipart field `metadata` before the file instead',
    ),
});

/** The body of a confirmation: nothing (as proposed), or another strategy or parameters. */
export const confirmPlanBody = z
  .strictObject({
    strategy: z.enum(CHUNKING_STRATEGIES).optional(),
    parameters: z
      .strictObject({
        childTokens: z.number().int().optional(),
        overlapTokens: z.number().int().optional(),
        parentTokens: z.number().int().nullable().optional(),
      })
      .optional(),
  })
  .describe('Left empty, the plan is confirmed as proposed; parameters not named keep the plan’s.');

/** A choice within the dataset settings' bounds, or a 400 PLAN_VALIDATION_FAILED naming the field. */
export function checkedChoice(choice: ChunkingChoice): ChunkingChoice {
  const parsed = chunkingChoiceSchema.safeParse(choice);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'choice'}: ${i.message}`);
  throw new ApiError(400, 'PLAN_VALIDATION_FAILED', issues.join('; '));
}

/**
 * The query's choice; undefined when it names nothing, so the dataset's settings decide. Checked
 * merged with the parameters the plan will lay it over, the dataset's own included
 * (uploadChoiceProblem), so it is refused here rather than at CHUNKING. The dataset's chunking
 * section is read only when the query names a choice.
 */
export async function choiceOfQuery(
  query: z.output<typeof uploadChoiceQuery>,
  general: ChunkingParameters,
  datasetChunking: () => Promise<DatasetChunking | null>,
): Promise<ChunkingChoice | undefined> {
  const { strategy, metadata: _metadata, ...sizes } = query;
  const parameters = Object.fromEntries(Object.entries(sizes).filter(([, v]) => v !== undefined));
  if (strategy === undefined && Object.keys(parameters).length === 0) return undefined;
  const choice = checkedChoice({
    ...(strategy ? { strategy } : {}),
    ...(Object.keys(parameters).length > 0 ? { parameters } : {}),
  });
  const problem = uploadChoiceProblem(choice, general, await datasetChunking());
  if (problem) throw new ApiError(400, 'PLAN_VALIDATION_FAILED', problem);
  return choice;
}

const parametersSchema = z.object({
  childTokens: z.number(),
  overlapTokens: z.number(),
  parentTokens: z.number().nullable(),
});
const planSchema = z.object({
  strategy: z.enum(CHUNKING_STRATEGIES),
  parameters: parametersSchema,
  reason: z.string(),
});

/** A document's plan: its state, what was recommended, what runs, and a preview of the first chunks. */
export const planViewSchema = z.object({
  documentId: z.string(),
  taskId: z.string().nullable(),
  state: z.enum(PLAN_STATES),
  plan: planSchema,
  recommended: planSchema,
  review: z.enum(PLAN_REVIEW_MODES),
  chunkCount: z.number().describe('chunks the plan makes in all'),
  preview: z.array(
    z.object({
      chunkIndex: z.number(),
      kind: z.enum(['parent', 'child']),
      sectionPath: z.array(z.string()),
      text: z.string(),
      tokenCount: z.number(),
    }),
  ),
  confirmedBy: z.string().nullable(),
  source: z.enum(['workflow', 'database']).describe('the live query of the waiting run, or the stored row'),
});

export const planConfirmedSchema = z.object({ documentId: z.string(), plan: planSchema });

/** The plan's state and reason in a document's JSON; null before its plan step has run. */
export const documentPlanSchema = z
  .object({ state: z.enum(PLAN_STATES), strategy: z.enum(CHUNKING_STRATEGIES), reason: z.string() })
  .nullable();
