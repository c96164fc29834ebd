import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { Kysely } from 'kysely';
import type { BatchProgress } from '../../activities/heartbeat';
import type { ActivityDeps } from '../../activities/deps';
import { storeTokenPlan } from '../../activities/stages/tokenPlan';
import type { StageInput, StageResult } from '../../contracts/ingest';
import type { Stage } from '../../contracts/stages';
import type { Database } from '../../db/database';
import { listActiveChunks, replaceChunks } from '../../db/repositories/chunks';
import { insertDocument } from '../../db/repositories/documents';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';

/** The deps a stage under test is given; touching any other one throws, naming it. */
export function partialDeps(given: Partial<ActivityDeps>): ActivityDeps {
  return new Proxy(given as ActivityDeps, {
    get: (target, prop) => {
      if (prop in target) return target[prop as keyof ActivityDeps];
      throw new Error(`the test did not expect the stage to use deps.${String(prop)}`);
    },
  });
}

/**
 * A new task of the document whose stages before KEYWORD_INDEXING are inherited SUCCESS, with
 * the token plan PRETOKENIZE would have stored for the current chunks (each chunk's words).
 */
export async function newKeywordTask(deps: ActivityDeps, doc: Omit<StageInput, 'taskId'>): Promise<StageInput> {
  const input = { ...doc, taskId: randomUUID() };
  const chunks = await listActiveChunks(deps.db, { documentId: doc.documentId, generation: 0 });
  const tokenPlanObjectKey = await storeTokenPlan(
    deps,
    input,
    new Map(chunks.map((c) => [c.chunk_id, c.text.split(' ')])),
  );
  await insertTaskWithPipeline(deps.db, {
    taskId: input.taskId,
    documentId: doc.documentId,
    ownerRunChain: randomUUID(),
    tokenPlanObjectKey,
    inherited: { CLEANING: 1, CHUNKING: 1, VECTORIZING: 1, PRETOKENIZE: 1 },
  });
  return input;
}

/** Writes the document's chunk set as CHUNKING would: `count` children with ids `${doc}:${i}`. */
export async function writeChunks(
  db: Kysely<Database>,
  input: Omit<StageInput, 'taskId'>,
  count: number,
): Promise<string[]> {
  const drafts = Array.from({ length: count }, (_, i) => ({
    chunkId: `${input.documentId}:${i}`,
    chunkIndex: i,
    kind: 'child' as const,
    parentId: null,
    childRange: null,
    sectionPath: [],
    text: `chunk${i} shared`,
    charCount: 13,
    tokenCount: 2,
  }));
  await replaceChunks(db, { ...input, generation: 0 }, drafts);
  return drafts.map((d) => d.chunkId);
}

/** A new document of a new user and dataset, with `chunks` active chunks (writeChunks). */
export async function seedDocument(
  db: Kysely<Database>,
  chunks: number,
): Promise<{ doc: Omit<StageInput, 'taskId'>; chunkIds: string[] }> {
  const doc = { documentId: randomUUID(), userId: `u-${randomUUID()}`, datasetId: `ds-${randomUUID()}` };
  await insertDocument(db, {
    id: doc.documentId,
    user_id: doc.userId,
    dataset_id: doc.datasetId,
    file_name: 'notes.md',
    size_bytes: 1,
    content_sha256: randomUUID(),
    source_object_key: `sources/${doc.documentId}`,
  });
  return { doc, chunkIds: await writeChunks(db, doc, chunks) };
}

/** A new document with `chunks` active chunks, and a task whose `inherited` stages are SUCCESS already. */
export async function seedStageTask(
  db: Kysely<Database>,
  chunks: number,
  inherited: readonly Stage[],
): Promise<StageInput> {
  const { doc } = await seedDocument(db, chunks);
  const input = { ...doc, taskId: randomUUID() };
  await insertTaskWithPipeline(db, {
    taskId: input.taskId,
    documentId: doc.documentId,
    ownerRunChain: randomUUID(),
    inherited: Object.fromEntries(inherited.map((stage) => [stage, 1])),
  });
  return input;
}

/** A document with `chunks` active chunks and a task that is about to run KEYWORD_INDEXING. */
export async function seedKeywordDocument(
  deps: ActivityDeps,
  chunks: number,
): Promise<{ input: StageInput; chunkIds: string[] }> {
  const { doc, chunkIds } = await seedDocument(deps.db, chunks);
  return { input: await newKeywordTask(deps, doc), chunkIds };
}

export interface Attempt {
  /** Settles when the attempt ends (never, for an attempt whose worker crashed). */
  outcome: Promise<{ result?: StageResult; error?: unknown }>;
  /** What the server would hand the next attempt: the last details heartbeated, else the ones this attempt got. */
  details(): BatchProgress | undefined;
}

/** One attempt of an activity in its own MockActivityEnvironment (its own Context), as a retry gets. */
export function runAttempt<I extends StageInput>(
  activity: (input: I) => Promise<StageResult>,
  input: I,
  details?: BatchProgress,
): Attempt {
  const env = new MockActivityEnvironment({ heartbeatDetails: details, heartbeatTimeoutMs: 30_000 });
  let recorded = details;
  env.on('heartbeat', (d: BatchProgress) => (recorded = d));
  const outcome = env.run(activity, input).then(
    (result) => ({ result: result as StageResult }),
    (error: unknown) => ({ error }),
  );
  return { outcome, details: () => recorded };
}
