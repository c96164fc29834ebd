import type { ChunkDraft } from '../contracts/chunk';
import { chunkingParametersProblem, type ChunkingPlan } from '../contracts/chunkingPlan';
import { permanentError } from '../contracts/sluiceError';
import { chunkMarkdown } from './chunkMarkdown';
import { stripPageMarkers, withPages } from './chunkPages';
import { oneChunk } from './strategies/oneChunk';
import { pageChunks } from './strategies/pageChunks';
import { qaChunks } from './strategies/qaChunks';
import { tableChunks } from './strategies/tableChunks';

/** What bounds any plan's output, whatever its parameters say (the deployment's, not the plan's). */
export interface ChunkingLimits {
  /** SLUICE_MAX_CHUNKS_PER_DOCUMENT: past it the document fails FILE_TOO_LARGE. */
  maxChunks: number;
}

/**
 * The one entry to chunking under a plan: CHUNKING, the plan preview and rebuilds all cut through
 * here, so the same markdown and plan give the same chunks and ids wherever they are made. Every
 * strategy is one pass over the markdown (plus the token counts of what it cuts) and stops at the
 * chunk cap. Page markers are removed for every strategy but `page`, which is the one that reads
 * them, so `general` cuts what it cut before the parsers wrote them.
 */
export function chunkWithPlan(
  documentId: string,
  markdown: string,
  plan: ChunkingPlan,
  limits: ChunkingLimits,
): ChunkDraft[] {
  const problem = chunkingParametersProblem(plan.parameters);
  if (problem) throw permanentError('CHUNKING_FAILED', `invalid chunking parameters: ${problem}`);
  // Every strategy but `page` cuts the markdown without its markers; each chunk's pages are then
  // read off where its text lies in it.
  const { text, starts } = stripPageMarkers(markdown);
  return withPages(text, starts, cutWithPlan(documentId, markdown, text, plan, limits));
}

function cutWithPlan(
  documentId: string,
  markdown: string,
  withoutMarkers: string,
  plan: ChunkingPlan,
  limits: ChunkingLimits,
): ChunkDraft[] {
  const { childTokens, overlapTokens, parentTokens } = plan.parameters;
  switch (plan.strategy) {
    case 'general':
      return chunkMarkdown(documentId, withoutMarkers, {
        maxTokens: childTokens,
        overlapTokens,
        parentTokens,
        maxChunks: limits.maxChunks,
      });
    case 'qa':
      return qaChunks(documentId, withoutMarkers, plan.parameters, limits.maxChunks);
    case 'table':
      return tableChunks(documentId, withoutMarkers, plan.parameters, limits.maxChunks);
    case 'page':
      return pageChunks(documentId, markdown, plan.parameters, limits.maxChunks);
    case 'one':
      return oneChunk(documentId, withoutMarkers, plan.parameters, limits.maxChunks);
  }
}
