import type { StageInput } from '../../contracts/ingest';
import type { CpuPool } from '../../cpuPool/pool';
import { listActiveChunkIds, listActiveChunks, type ChunkText } from '../../db/repositories/chunks';
import { recordTokenPlan } from '../../db/repositories/tasks';
import { objectKeys } from '../../stores/objectKeys';
import { ObjectNotFoundError } from '../../stores/ports';
import type { ActivityDeps } from '../deps';
import { withEnrichment } from './enrichedText';

/** chunk id → pretokenized terms: what KEYWORD_INDEXING and SPARSE_VECTORIZING both consume. */
export type TokenPlan = Map<string, string[]>;

/** Tokenized in the CPU pool, under its time and heap limits (PRETOKENIZE_FAILED when one is hit). */
export async function buildTokenPlan(cpu: CpuPool, chunks: Pick<ChunkText, 'chunk_id' | 'text'>[]): Promise<TokenPlan> {
  // The Map takes the pairs' term lists as they are: the plan is not held twice.
  return new Map(await cpu.tokenize(chunks));
}

/**
 * Stored as JSON lines by reference (claim check): one `{chunkId, tokens}` per line. Returns the
 * object key, which the caller records on the task.
 */
export async function storeTokenPlan(deps: ActivityDeps, input: StageInput, plan: TokenPlan): Promise<string> {
  const key = objectKeys.tokenPlan(input.userId, input.documentId, input.taskId);
  const lines: string[] = [];
  for (const [chunkId, tokens] of plan) lines.push(JSON.stringify({ chunkId, tokens }));
  await deps.objects.putText(key, lines.join('\n'));
  return key;
}

function parseTokenPlan(text: string): TokenPlan {
  const plan: TokenPlan = new Map();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const entry = JSON.parse(line) as { chunkId: string; tokens: string[] };
    plan.set(entry.chunkId, entry.tokens);
  }
  return plan;
}

/**
 * Loads the plan PRETOKENIZE stored; when it is missing (PRETOKENIZE was inherited from an
 * older task whose plan is gone, or never ran in this task) it is rebuilt and stored again.
 * A plan that lacks a current chunk of the task's chunk set is stale and rebuilt too.
 */
export async function loadOrRebuildTokenPlan(
  deps: ActivityDeps,
  input: StageInput,
  started: { tokenPlanObjectKey: string | null; chunkGeneration: number },
  loaded?: ChunkText[],
): Promise<TokenPlan> {
  const { tokenPlanObjectKey } = started;
  const set = { documentId: input.documentId, generation: started.chunkGeneration };
  if (tokenPlanObjectKey) {
    try {
      const plan = parseTokenPlan(await deps.objects.getText(tokenPlanObjectKey));
      // Ids suffice to check coverage; chunk texts are read only when the plan must be rebuilt.
      const ids = loaded ? loaded.map((c) => c.chunk_id) : await listActiveChunkIds(deps.db, set);
      if (ids.every((id) => plan.has(id))) return plan;
    } catch (error) {
      if (!(error instanceof ObjectNotFoundError)) throw error;
    }
  }
  const chunks = loaded ?? (await listActiveChunks(deps.db, set));
  const plan = await buildTokenPlan(deps.cpu, await withEnrichment(deps.db, input.documentId, chunks));
  await recordTokenPlan(deps.db, input.taskId, await storeTokenPlan(deps, input, plan));
  return plan;
}
