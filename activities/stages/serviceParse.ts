import { Readable } from 'node:stream';
import { Context, log } from '@temporalio/activity';
import type { StageInput } from '../../contracts/ingest';
import { permanentError, SluiceError, transientError } from '../../contracts/sluiceError';
import type { StartedStage } from '../../db/repositories/stageTransitions';
import {
  findRemoteParseTask,
  recordRemoteParseTask,
  type RemoteParseTask,
} from '../../db/repositories/remoteParseTasks';
import { isRemoteTaskId } from '../../parserService/protocol';
import { markdownLimit } from '../../parsers/parseLimits';
import { objectKeys } from '../../stores/objectKeys';
import type { ActivityDeps, ParserServiceDeps } from '../deps';
import { rememberInHeartbeat } from '../heartbeat';
import { chargeProducedBytes } from './producedBytesQuota';
import { orTransient } from '../transient';

/** What an attempt carries in its heartbeats: the remote task its successor polls again. */
interface ServiceParseDetails {
  remoteParseTaskId: string;
}

const IMAGE_CAP_BYTES = 16 * 1024 * 1024;

/**
 * CLEANING by the external parsing service: the service is given a short-lived presigned URL of
 * the stored source (the worker never downloads it), its task is polled with heartbeats carrying
 * the remote task id, and its markdown and images are fetched. A new attempt (a worker crash, a
 * retry) polls the same remote task, from the heartbeat or the parse_tasks row; only a new task
 * (the document admin's retry) creates another.
 */
export async function parseWithService(
  deps: ActivityDeps,
  input: StageInput,
  started: StartedStage,
): Promise<{ markdown: string; images: string[]; imageBytes: number }> {
  const service = deps.parserService;
  if (!service)
    throw permanentError(
      'PARSE_ENGINE_FAILED',
      'the dataset parses this file type with the parsing service, but this deployment has none (SLUICE_PARSER_SERVICE_URL)',
    );
  const remote = await remoteTask(deps, service, input, started);
  rememberInHeartbeat({ remoteParseTaskId: remote.remoteTaskId } satisfies ServiceParseDetails);
  const images = await waitUntilDone(service, remote);
  // The answer, markdown and images together, in proportion to the source as a built-in parse's markdown is.
  const limit = markdownLimit(deps.settings.markdown, started.sizeBytes);
  const tooMuch = answerTooLarge(limit, started.sizeBytes);
  const markdown = await tooMuch(() => service.client.getMarkdown(remote.remoteTaskId, limit));
  if (markdown.trim() === '')
    throw permanentError('EMPTY_DOCUMENT', `the parsing service found no text in ${started.fileName}`);
  const markdownBytes = Buffer.byteLength(markdown, 'utf8');
  const answer = { service, remote, limit, read: tooMuch };
  try {
    const stored = await storeImages(deps, input, answer, images, markdownBytes);
    return { markdown, images: stored.keys, imageBytes: stored.bytes };
  } catch (error) {
    // A refused answer leaves none of its images behind (a transient failure's attempt stores them again).
    if (error instanceof SluiceError && error.permanent)
      await deps.objects.deletePrefix(objectKeys.parsedImagesOf(input.userId, input.documentId, input.taskId));
    throw error;
  }
}

interface ServiceAnswer {
  service: ParserServiceDeps;
  remote: RemoteParseTask;
  /** What markdown and images together may take. */
  limit: number;
  read: ReturnType<typeof answerTooLarge>;
}

/** Fetches and stores each image, each charged to the quota (with the markdown) before it is stored. */
async function storeImages(
  deps: ActivityDeps,
  input: StageInput,
  answer: ServiceAnswer,
  names: readonly string[],
  markdownBytes: number,
): Promise<{ keys: string[]; bytes: number }> {
  let produced = markdownBytes;
  const keys: string[] = [];
  for (const name of names) {
    const cap = Math.max(0, Math.min(IMAGE_CAP_BYTES, answer.limit - produced));
    const bytes = await answer.read(() => answer.service.client.getImage(answer.remote.remoteTaskId, name, cap));
    produced += bytes.length;
    await chargeProducedBytes(deps, input, produced, 'markdown and images');
    const key = objectKeys.parsedImage(input.userId, input.documentId, input.taskId, name);
    await orTransient('PARSED_FILE_UPLOAD_FAILED', 'storing an image', () =>
      deps.objects.putStream(key, Readable.from([bytes])),
    );
    keys.push(key);
  }
  return { keys, bytes: produced - markdownBytes };
}

/** An answer past its cap says which bound it passed: one image's, or the document's. */
function answerTooLarge(limit: number, sourceBytes: number) {
  return async <T>(read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof SluiceError) || error.code !== 'FILE_TOO_LARGE') throw error;
      throw permanentError(
        'FILE_TOO_LARGE',
        `${error.message}: a ${sourceBytes}-byte source may produce ${limit} bytes of markdown and images, and one image at most ${IMAGE_CAP_BYTES}`,
        error,
      );
    }
  };
}

/** The remote task of this sluice task: the one a heartbeat or the row names, else a new one. */
async function remoteTask(
  deps: ActivityDeps,
  service: ParserServiceDeps,
  input: StageInput,
  started: StartedStage,
): Promise<RemoteParseTask> {
  const fromHeartbeat = (Context.current().info.heartbeatDetails as Partial<ServiceParseDetails> | undefined)
    ?.remoteParseTaskId;
  const recorded = await findRemoteParseTask(deps.db, input.taskId);
  if (recorded) return recorded;
  if (isRemoteTaskId(fromHeartbeat)) return recordRemoteParseTask(deps.db, input.taskId, fromHeartbeat);
  if (!deps.objects.presignGet)
    throw permanentError(
      'PARSE_ENGINE_FAILED',
      'the parsing service reads the source by URL, and the local object store has none: use the S3 object store (SLUICE_OBJECT_STORE=s3) or the built-in parsers',
    );
  // Made just before it is handed over and never kept: the URL reads the source without credentials.
  const sourceUrl = await orTransient('PARSE_ENGINE_FAILED', 'presigning the source', () =>
    // `presignGet` is checked above; the closure keeps the method bound to its store.
    deps.objects.presignGet!(started.sourceObjectKey, service.sourceUrlTtlSeconds),
  );
  const remoteTaskId = await service.client.createTask({
    sourceUrl,
    fileName: started.fileName,
    fileType: started.fileType,
    dataId: input.taskId,
  });
  log.info('parsing service task created', { taskId: input.taskId, remoteParseTaskId: remoteTaskId });
  return recordRemoteParseTask(deps.db, input.taskId, remoteTaskId);
}

/**
 * Polls until the task is done (its image names) or failed. Errors of the service are ridden out
 * for `outageMs`, then fail the attempt as retryable (the next polls the same task); the task's
 * own deadline runs from its creation, so a new attempt does not restart the clock.
 */
async function waitUntilDone(service: ParserServiceDeps, remote: RemoteParseTask): Promise<string[]> {
  const ctx = Context.current();
  const deadline = remote.startedAt.getTime() + service.timeoutMs;
  let failingSince: number | null = null;
  for (;;) {
    if (Date.now() > deadline)
      throw permanentError(
        'PARSE_ENGINE_FAILED',
        `the parsing service's task did not finish within ${Math.round(service.timeoutMs / 1000)} s`,
      );
    try {
      const status = await service.client.getTask(remote.remoteTaskId);
      failingSince = null;
      if (status.state === 'done') return status.images ?? [];
      if (status.state === 'failed')
        throw permanentError('PARSE_ENGINE_FAILED', `the parsing service failed the task: ${oneLine(status.err_msg)}`);
    } catch (error) {
      if (!(error instanceof SluiceError) || error.permanent) throw error;
      failingSince ??= Date.now();
      if (Date.now() - failingSince > service.outageMs)
        throw transientError('PARSE_ENGINE_FAILED', `${error.message}, for longer than ${service.outageMs} ms`, error);
    }
    await ctx.sleep(service.pollMs);
  }
}

/** The service's own words, bounded: they reach failure_reason (safeForTenant strips addresses). */
function oneLine(text: string | null | undefined): string {
  // A service may quote the source URL it could not read: it is a credential, in the log too.
  const line = (text ?? 'no reason given')
    .slice(0, 4000)
    .replace(/\b[a-z][a-z0-9+.-]{0,20}:\/\/\S*/gi, '[url]')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
