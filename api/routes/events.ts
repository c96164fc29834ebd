import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { IngestProgress } from '../../contracts/ingest';
import { STAGES, type PipelineStatus, type Stage, type StageStatus } from '../../contracts/stages';
import { queryProgress } from '../../client/ingestClient';
import type { ApiContext } from '../context';
import { loadDocumentView } from '../documentViews';
import { notFound } from '../errors';
import type { Router } from '../router';
import { documentParams, errorResponseSchema, type DocumentView } from '../schemas';
import { createStreamLimiter } from '../streamLimiter';

/** How long one `progress` query may take before the poll falls back to Postgres. */
const QUERY_DEADLINE_MS = 2000;
/** A comment line this often keeps proxies (and our own idle timeout) from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/** Streams end after this; EventSource clients reconnect by themselves. */
const MAX_STREAM_MS = 30 * 60_000;

export interface ProgressSnapshot {
  documentId: string;
  taskId: string | null;
  lifecycle: 'ACTIVE' | 'DELETING';
  status: PipelineStatus;
  currentStage: Stage | null;
  stages: Record<Stage, StageStatus>;
  chunkCount: number;
  failureCode: string | null;
  waitingForRetry: boolean;
  /** What an activity of the run rides out (the progress query's `waiting`); null when nothing waits. */
  waiting: IngestProgress['waiting'];
  /** The chunking plan's state (WAIT_CONFIRM while a person must confirm it), from Postgres. */
  planState: string | null;
  /** Where the state was read: the workflow's `progress` query, or Postgres when the query failed. */
  source: 'workflow' | 'database';
}

function fromWorkflow(view: DocumentView, p: IngestProgress): ProgressSnapshot {
  return {
    documentId: view.documentId,
    taskId: p.taskId,
    lifecycle: view.lifecycle,
    status: p.status,
    currentStage: p.currentStage,
    stages: { ...p.stages },
    chunkCount: p.chunkCount,
    failureCode: p.failureCode,
    waitingForRetry: p.waitingForRetry,
    waiting: p.waiting ?? null,
    planState: view.plan?.state ?? null,
    source: 'workflow',
  };
}

function fromDatabase(view: DocumentView): ProgressSnapshot {
  return {
    documentId: view.documentId,
    taskId: view.taskId,
    lifecycle: view.lifecycle,
    status: view.pipelineStatus,
    currentStage: view.currentStage,
    stages: Object.fromEntries(view.stages.map((s) => [s.stage, s.status])) as Record<Stage, StageStatus>,
    chunkCount: view.chunks.active,
    failureCode: view.failure?.code ?? null,
    waitingForRetry: false,
    waiting: null,
    planState: view.plan?.state ?? null,
    source: 'database',
  };
}

const sameState = (a: ProgressSnapshot, b: ProgressSnapshot) => {
  const { source: _a, ...restA } = a;
  const { source: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
};

export const eventsQuery = z.object({
  taskId: z
    .string()
    .max(100)
    .optional()
    .describe('follow this task: terminal states of earlier tasks (before a retry took over) do not end the stream'),
  until: z
    .enum(['terminal', 'deleted'])
    .default('terminal')
    .describe(
      '`terminal` (default): end when the followed task is SUCCESS or FAILED; `deleted`: end only when the document is gone',
    ),
});

export function eventRoutes(router: Router, ctx: ApiContext): void {
  const streams = createStreamLimiter(ctx.config.api.maxStreamsPerKey);
  const keepaliveMs = Math.min(KEEPALIVE_MS, Math.floor(ctx.config.api.idleTimeoutMs / 3));
  router.route({
    method: 'GET',
    path: '/v1/documents/{id}/events',
    operationId: 'documentEvents',
    summary: "Server-sent events: the document's stage transitions as they happen",
    description:
      "The server polls the workflow's `progress` query and emits on change: `progress` (the full state, first event included), " +
      '`stage` (one stage changed status), then `end` once the followed task is SUCCESS or FAILED, or `deleted` when the document ' +
      'is gone (`until=deleted` waits for that). A comment line is sent every 15 s to keep proxies from closing the stream. ' +
      'An API key may hold SLUICE_API_MAX_STREAMS_PER_KEY streams at once (default 8); beyond that the answer is 429.',
    tags: ['documents'],
    auth: true,
    params: documentParams,
    querystring: eventsQuery,
    responses: {
      200: { description: 'text/event-stream', contentType: 'text/event-stream', schema: z.string() },
      404: { description: 'no such document for this user', schema: errorResponseSchema },
      429: { description: 'this API key has too many open streams', schema: errorResponseSchema },
    },
    handler: async ({ request, reply, params, query, principal }) => {
      const { userId, keyId } = principal();
      const release = streams.acquire(keyId);
      try {
        await streamEvents(ctx, request, reply, { userId, documentId: params.id, keepaliveMs }, query);
      } finally {
        release();
      }
    },
  });
}

async function streamEvents(
  ctx: ApiContext,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: { userId: string; documentId: string; keepaliveMs: number },
  query: z.output<typeof eventsQuery>,
): Promise<void> {
  const { userId, documentId, keepaliveMs } = scope;
  const first = await loadDocumentView(ctx.adapters.db, ctx.config, userId, documentId);
  if (!first) throw notFound();

  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': String(request.id),
  });
  ctx.metrics.sseStreams.inc();

  let open = true;
  let wake: (() => void) | null = null;
  res.on('close', () => {
    open = false;
    wake?.();
  });
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  let eventId = 0;
  let lastWrite = Date.now();
  const send = (event: string, data: unknown) => {
    if (!open) return;
    res.write(`id: ${++eventId}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    lastWrite = Date.now();
  };

  const snapshot = async (): Promise<ProgressSnapshot | null> => {
    const view = await loadDocumentView(ctx.adapters.db, ctx.config, userId, documentId);
    if (!view) return null;
    const progress = await ctx.client.connection
      .withDeadline(Date.now() + QUERY_DEADLINE_MS, () => queryProgress(ctx.client, documentId))
      .catch(() => null);
    // A query answers from the open (or last) run; before the first workflow task it fails.
    return progress ? fromWorkflow(view, progress) : fromDatabase(view);
  };

  const startedAt = Date.now();
  let last: ProgressSnapshot | null = null;
  try {
    res.write(`retry: ${Math.max(1000, ctx.config.api.ssePollMs * 2)}\n\n`);
    while (open) {
      const snap = await snapshot();
      if (!snap) {
        send('deleted', { documentId });
        break;
      }
      if (last) {
        for (const stage of STAGES) {
          if (last.stages[stage] !== snap.stages[stage]) {
            send('stage', {
              documentId: snap.documentId,
              taskId: snap.taskId,
              stage,
              from: last.stages[stage],
              to: snap.stages[stage],
            });
          }
        }
      }
      if (!last || !sameState(last, snap)) send('progress', snap);
      last = snap;
      const followed = query.until === 'terminal' && (query.taskId === undefined || snap.taskId === query.taskId);
      if (followed && (snap.status === 'SUCCESS' || snap.status === 'FAILED')) {
        send('end', {
          documentId: snap.documentId,
          taskId: snap.taskId,
          status: snap.status,
          failureCode: snap.failureCode,
        });
        break;
      }
      if (Date.now() - startedAt > MAX_STREAM_MS) break;
      if (Date.now() - lastWrite > keepaliveMs && open) {
        res.write(': keepalive\n\n');
        lastWrite = Date.now();
      }
      await sleep(ctx.config.api.ssePollMs);
    }
  } catch (error) {
    request.log.error({ err: error }, 'event stream failed');
    send('stream-error', { code: 'INTERNAL', message: 'internal error' });
  } finally {
    ctx.metrics.sseStreams.dec();
    if (open) res.end();
  }
}
