import type { ChunkDraft } from '../contracts/chunk';
import {
  applyChoice,
  PREVIEW_CHUNKS,
  PREVIEW_TEXT_CHARS,
  type ChunkingChoice,
  type ChunkingParameters,
  type ChunkingPlan,
  type ChunkingStrategy,
  type PlanPreviewChunk,
} from '../contracts/chunkingPlan';
import { chunkWithPlan, type ChunkingLimits } from './chunkWithPlan';
import { documentProfile } from './documentProfile';
import { recommendPlan, STRATEGY_PARAMETERS } from './recommendPlan';

export interface ProposeInput {
  documentId: string;
  markdown: string;
  fileType: string | null;
  /** The dataset's chunking section: a fixed strategy (or `auto`) and parameters over the strategy's. */
  dataset: { strategy: 'auto' | ChunkingStrategy; parameters?: Partial<ChunkingParameters> } | null;
  /** The document's own choice, made at upload; it wins over the dataset's. */
  document: ChunkingChoice | null;
  /** The deployment's `general` parameters (SLUICE_CHUNK_MAX_TOKENS, SLUICE_CHUNK_OVERLAP_TOKENS). */
  generalParameters: ChunkingParameters;
  limits: ChunkingLimits;
}

export interface Proposal {
  recommended: ChunkingPlan;
  plan: ChunkingPlan;
  preview: PlanPreviewChunk[];
  chunkCount: number;
  /** Why the preview could not be made (the plan's chunking would fail the same way), else null. */
  previewProblem: string | null;
}

/**
 * The plan for one parsed document: recommended from its structure, then the dataset's fixed
 * strategy and parameters, then the upload's choice, each over the one before; and a preview of
 * the chunks it makes (the first PREVIEW_CHUNKS children, cut to PREVIEW_TEXT_CHARS) so a reviewer
 * sees what they confirm. Pure; runs in a CPU-pool thread (cpuPool/tasks.ts).
 */
export function proposePlan(input: ProposeInput): Proposal {
  const structural = recommendPlan(documentProfile(input.markdown, input.fileType));
  const recommended: ChunkingPlan =
    structural.strategy === 'general' ? { ...structural, parameters: { ...input.generalParameters } } : structural;
  let plan = recommended;
  if (input.dataset) {
    const { strategy, parameters } = input.dataset;
    if (strategy !== 'auto' && strategy !== plan.strategy)
      plan = { strategy, parameters: parametersOf(strategy, input), reason: `the dataset's strategy is ${strategy}` };
    if (parameters) plan = { ...plan, parameters: { ...plan.parameters, ...parameters } };
  }
  if (input.document) {
    const strategy = input.document.strategy ?? plan.strategy;
    const base = strategy === plan.strategy ? plan : { ...plan, strategy, parameters: parametersOf(strategy, input) };
    plan = applyChoice(
      plan,
      { strategy, parameters: { ...base.parameters, ...input.document.parameters } },
      'the upload',
    );
  }
  try {
    const chunks = chunkWithPlan(input.documentId, input.markdown, plan, input.limits);
    return { recommended, plan, preview: previewOf(chunks), chunkCount: chunks.length, previewProblem: null };
  } catch (error) {
    return { recommended, plan, preview: [], chunkCount: 0, previewProblem: String((error as Error).message ?? error) };
  }
}

function parametersOf(strategy: ChunkingStrategy, input: ProposeInput): ChunkingParameters {
  return strategy === 'general' ? { ...input.generalParameters } : { ...STRATEGY_PARAMETERS[strategy] };
}

/** The first children, each with its parent's place: what a search would return first. */
export function previewOf(chunks: readonly ChunkDraft[]): PlanPreviewChunk[] {
  const preview: PlanPreviewChunk[] = [];
  for (const chunk of chunks) {
    if (chunk.kind !== 'child') continue;
    const text =
      chunk.text.length > PREVIEW_TEXT_CHARS ? `${chunk.text.slice(0, PREVIEW_TEXT_CHARS - 1)}…` : chunk.text;
    preview.push({
      chunkIndex: chunk.chunkIndex,
      kind: chunk.kind,
      sectionPath: chunk.sectionPath,
      text,
      tokenCount: chunk.tokenCount,
    });
    if (preview.length === PREVIEW_CHUNKS) break;
  }
  return preview;
}
