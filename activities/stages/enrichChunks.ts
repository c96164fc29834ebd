import { Context } from '@temporalio/activity';
import type { StageInput } from '../../contracts/ingest';
import { permanentError } from '../../contracts/sluiceError';
import { enrichedChunkIds, saveChunkEnrichments } from '../../db/repositories/chunkEnrichments';
import { listActiveChunks } from '../../db/repositories/chunks';
import { findDatasetSettings } from '../../db/repositories/datasetSettings';
import { completeChat, type ChatModelSettings } from '../../enrichment/chatModel';
import { loadModelSettings, UnreadableModelKeyError } from '../../enrichment/storedModel';
import { chunkMetadataMessages, parseChunkMetadata } from '../../enrichment/chunkMetadata';
import { getTask } from '../../db/repositories/tasks';
import type { ActivityDeps } from '../deps';
import { keepAlive, reportProgress } from '../heartbeat';
import { mappingFailures } from '../toApplicationFailure';

export interface EnrichChunksResult {
  /** Chunks a model wrote keywords or questions for in this attempt. */
  enriched: number;
  /** Chunks already done by an earlier attempt (their rows are the checkpoint). */
  skipped: number;
}

/**
 * The first part of PRETOKENIZE, on the enrichment task queue (contracts/taskQueues.ts): keywords
 * and likely questions per chunk from the user's CHAT model, when the dataset asks for them. Each
 * batch's answer is stored before the next is asked, keyed by chunk id, so a retry (or the next
 * attempt after a crash) never asks again for a chunk already done. A dataset asking while its
 * user has no CHAT model fails LLM_CONFIG_MISSING.
 */
export function createEnrichChunksActivity(deps: ActivityDeps) {
  return mappingFailures(async function enrichChunks(input: StageInput): Promise<EnrichChunksResult> {
    const settings = (await findDatasetSettings(deps.db, input)).enrichment;
    const want = { keywords: settings?.chunkKeywords === true, questions: settings?.chunkQuestions === true };
    if (!want.keywords && !want.questions) return { enriched: 0, skipped: 0 };
    const model = await chatModelOf(deps, input.userId, 'chunk keywords or questions');
    // The chunk set this task builds (a rebuild's new one, or the document's served one).
    const { chunk_generation: generation } = await getTask(deps.db, input.taskId);
    const chunks = await listActiveChunks(deps.db, { documentId: input.documentId, generation });
    const done = await enrichedChunkIds(
      deps.db,
      chunks.map((c) => c.chunk_id),
    );
    const pending = chunks.filter((c) => !done.has(c.chunk_id));
    const stop = keepAlive();
    try {
      let enriched = 0;
      for (let start = 0; start < pending.length; start += deps.enrichment.batchSize) {
        const batch = pending.slice(start, start + deps.enrichment.batchSize);
        const reply = await completeChat(
          model,
          chunkMetadataMessages(
            batch.map((c) => c.text),
            want,
          ),
          {
            outbound: deps.enrichment.outbound,
            maxResponseBytes: deps.enrichment.maxResponseBytes,
            code: 'PRETOKENIZE_FAILED',
          },
        );
        const metadata = parseChunkMetadata(reply, batch.length);
        await saveChunkEnrichments(
          deps.db,
          input.documentId,
          model.model,
          batch.map((chunk, i) => ({
            chunkId: chunk.chunk_id,
            keywords: want.keywords ? (metadata[i]?.keywords ?? []) : [],
            questions: want.questions ? (metadata[i]?.questions ?? []) : [],
          })),
        );
        enriched += batch.length;
        reportProgress({ lastChunkIndex: batch[batch.length - 1]?.chunk_index ?? -1, done: done.size + enriched });
      }
      return { enriched, skipped: done.size };
    } finally {
      stop();
    }
  });
}

/** The user's CHAT model with its key unsealed; LLM_CONFIG_MISSING when there is none or it cannot be read. */
export async function chatModelOf(deps: ActivityDeps, userId: string, wanted: string): Promise<ChatModelSettings> {
  let model: ChatModelSettings | null;
  try {
    model = await loadModelSettings(deps.db, deps.enrichment.secretKeys, userId, 'chat');
  } catch (error) {
    if (error instanceof UnreadableModelKeyError) throw permanentError('LLM_CONFIG_MISSING', error.message);
    throw error;
  }
  if (!model)
    throw permanentError(
      'LLM_CONFIG_MISSING',
      `the dataset asks for ${wanted}, and its user has no CHAT model (sluice model set chat)`,
    );
  Context.current().log.info('enriching with the chat model', { model: model.model });
  return model;
}
