import { parentPort } from 'node:worker_threads';
import { chunkMarkdown, type ChunkerOptions } from '../chunker/chunkMarkdown';
import { applyOcrProvenance } from '../chunker/ocrProvenance';
import { chunkWithPlan, type ChunkingLimits } from '../chunker/chunkWithPlan';
import { proposePlan, type Proposal, type ProposeInput } from '../chunker/proposePlan';
import type { ChunkingPlan } from '../contracts/chunkingPlan';
import type { ChunkDraft, SparseVector } from '../contracts/chunk';
import { sparseVectorFromTokens } from '../sparse/sparseVector';
import { tokenize as tokenizeText } from '../tokenizer/tokenize';
import { replyOf, type StartedMessage, type Task, type TaskReply } from './protocol';

/**
 * The functions the pool's threads run (piscina calls them by export name). Each reports its
 * start, then replies with data: its result, or its error described so it survives the clone.
 * Importing this module loads the chunker and the tokenizer once per thread: that is what keeps
 * the threads warm. Parsing runs in child processes instead (parseChild.ts).
 */

export interface ChunkInput {
  documentId: string;
  markdown: string;
  options: ChunkerOptions;
}

export interface PlanChunkInput {
  documentId: string;
  markdown: string;
  plan: ChunkingPlan;
  limits: ChunkingLimits;
}

export interface TokenizeInput {
  chunks: { chunk_id: string; text: string }[];
}

/** One token list per chunk, in the order given: each becomes one sparse vector. */
export interface SparseInput {
  tokenLists: string[][];
}

/** chunk id → its terms, as pairs: a Map is rebuilt on the other side without copying the lists. */
export type TokenPlanEntries = [string, string[]][];

function started(taskId: number): void {
  parentPort?.postMessage({ sluiceTaskStarted: taskId } satisfies StartedMessage);
}

export function chunk({ taskId, payload }: Task<ChunkInput>): Promise<TaskReply<ChunkDraft[]>> {
  started(taskId);
  // OCR'd text is marked in the markdown; the chunks carry it as a confidence instead.
  return replyOf(() => applyOcrProvenance(chunkMarkdown(payload.documentId, payload.markdown, payload.options)));
}

export function chunkPlan({ taskId, payload }: Task<PlanChunkInput>): Promise<TaskReply<ChunkDraft[]>> {
  started(taskId);
  return replyOf(() =>
    applyOcrProvenance(chunkWithPlan(payload.documentId, payload.markdown, payload.plan, payload.limits)),
  );
}

export function propose({ taskId, payload }: Task<ProposeInput>): Promise<TaskReply<Proposal>> {
  started(taskId);
  return replyOf(() => proposePlan(payload));
}

export function tokenize({ taskId, payload }: Task<TokenizeInput>): Promise<TaskReply<TokenPlanEntries>> {
  started(taskId);
  return replyOf(() => payload.chunks.map((c): [string, string[]] => [c.chunk_id, tokenizeText(c.text)]));
}

export function sparse({ taskId, payload }: Task<SparseInput>): Promise<TaskReply<SparseVector[]>> {
  started(taskId);
  return replyOf(() => payload.tokenLists.map((tokens) => sparseVectorFromTokens(tokens)));
}
