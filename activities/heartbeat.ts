import { CancelledFailure, Context } from '@temporalio/activity';
import { transientError } from '../contracts/sluiceError';

/** Progress a long stage reports, and resumes from on the next attempt. */
export interface BatchProgress {
  /** Highest chunk_index fully processed by an earlier attempt. */
  lastChunkIndex: number;
  done: number;
}

/**
 * An attempt starts heartbeating once it has run this long. Every heartbeat is a write on the
 * Temporal server, and most documents finish a stage in well under a second: a heartbeat per
 * stage was about as many server writes as the stages themselves. Nothing is lost for short
 * attempts: a worker dying before its first heartbeat is still noticed after heartbeatTimeout
 * (measured from the start), and the retry redoes at most this much work, idempotently (chunk
 * statuses say what is done; the keyword stage upserts every chunk again without a resume point).
 */
const FIRST_HEARTBEAT_AFTER_MS = 2000;

/**
 * A beat inside the process is only a call into the SDK, which forwards at most one per
 * maxHeartbeatThrottleInterval (1 s, worker/createWorker.ts) to the server: beating every second
 * keeps the server's view at most about a second old, well inside the stages' 5 s
 * heartbeatTimeout (workflows/activityOptions.ts).
 */
const KEEP_ALIVE_EVERY_MS = 1000;

interface AttemptState {
  startedAt: number;
  /** Items an earlier attempt had done (the resume point's): this attempt's rate leaves them out. */
  doneBefore: number;
  /** The last progress reported: a keep-alive beat repeats it, so it never erases a resume point. */
  details: object | undefined;
}

const attempts = new WeakMap<Context, AttemptState>();

function stateOf(ctx: Context): AttemptState {
  let state = attempts.get(ctx);
  if (!state) {
    const before = ctx.info.heartbeatDetails as Partial<BatchProgress> | undefined;
    state = {
      startedAt: Date.now(),
      doneBefore: typeof before?.done === 'number' ? before.done : 0,
      details: undefined,
    };
    attempts.set(ctx, state);
  }
  return state;
}

export function resumePoint(): BatchProgress {
  const details = Context.current().info.heartbeatDetails as Partial<BatchProgress> | undefined;
  if (details && typeof details.lastChunkIndex === 'number' && typeof details.done === 'number') {
    return { lastChunkIndex: details.lastChunkIndex, done: details.done };
  }
  return { lastChunkIndex: -1, done: 0 };
}

/**
 * Reports progress and stops promptly when the run was cancelled (e.g. the document is being
 * deleted) or this worker is shutting down. A shutdown is not the run's cancellation: the attempt
 * fails as retryable, so the server hands it to another worker at once (after the retry backoff)
 * instead of after heartbeatTimeout, and the next attempt resumes from the progress just reported.
 */
export function reportProgress(progress: BatchProgress): void {
  const ctx = Context.current();
  const state = stateOf(ctx);
  // The attempt's items per second, for `sluice status` and the CLI's bars (client/pendingStage.ts).
  const seconds = (Date.now() - state.startedAt) / 1000;
  const perSecond = seconds > 0 ? Math.round(((progress.done - state.doneBefore) / seconds) * 10) / 10 : 0;
  state.details = { ...progress, perSecond };
  if (!ctx.info.isLocal && Date.now() - state.startedAt >= FIRST_HEARTBEAT_AFTER_MS) ctx.heartbeat(state.details);
  if (!ctx.cancellationSignal.aborted) return;
  if (ctx.cancellationDetails?.workerShutdown) {
    throw transientError(
      'INTERRUPTED_TASK',
      'the worker shut down mid-stage; the next attempt resumes from the last batch',
    );
  }
  throw new CancelledFailure('activity cancelled');
}

/**
 * Makes `details` what every later beat of this attempt carries (the keep-alive timer repeats it),
 * and beats at once: a resume point too important to wait for the first timed beat, such as the
 * remote task a crashed attempt's successor must poll again.
 */
export function rememberInHeartbeat(details: object): void {
  const ctx = Context.current();
  if (ctx.info.isLocal) return;
  stateOf(ctx).details = { ...details };
  ctx.heartbeat(details);
}

/**
 * Heartbeats on a timer while a stage works, whether or not the stage reports progress (CLEANING
 * waits on the CPU pool). Every stage has a heartbeatTimeout, so an attempt whose worker died,
 * or whose task the server marked started but no worker ever received (seen under CPU starvation),
 * is retried after that timeout rather than after its whole startToCloseTimeout (15 minutes for
 * CLEANING). Returns the function that stops it.
 */
export function keepAlive(): () => void {
  const ctx = Context.current();
  // A local activity has no heartbeats: its workflow task's timeout watches the worker instead.
  if (ctx.info.isLocal) return () => undefined;
  const state = stateOf(ctx);
  const timer = setInterval(() => {
    if (Date.now() - state.startedAt >= FIRST_HEARTBEAT_AFTER_MS) ctx.heartbeat(state.details);
  }, KEEP_ALIVE_EVERY_MS);
  return () => clearInterval(timer);
}

/**
 * Progress through a document's pages as OCR reaches them, told from outside the attempt's async
 * context (a parse process's messages, cpuPool/processPool.ts): bound to the attempt here, and
 * carried by the keep-alive beats. OCR starts over on a new attempt, so its rate counts from this
 * attempt's start. A local activity has no heartbeats: nothing to report.
 */
export function pageProgressReporter(): (started: { page: number; pages: number | null }) => void {
  const ctx = Context.current();
  if (ctx.info.isLocal) return () => undefined;
  const state = stateOf(ctx);
  return ({ page, pages }) => {
    const seconds = (Date.now() - state.startedAt) / 1000;
    const perSecond = seconds > 0 ? Math.round(((page - 1) / seconds) * 100) / 100 : 0;
    state.details = { done: page - 1, ...(pages === null ? {} : { total: pages }), unit: 'pages', perSecond };
  };
}
