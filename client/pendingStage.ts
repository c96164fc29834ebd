import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { google, temporal } from '@temporalio/proto';
import { ingestWorkflowId, type IngestProgress } from '../contracts/ingest';

/**
 * The activity a document's run is on now, as the Temporal server sees it: which attempt, the last
 * attempt's failure, when the next attempt starts and when the outage budget ends (its
 * schedule-to-close deadline), and the progress its heartbeats report. A run waiting out an outage
 * is PROCESSING in Postgres; this is what says it is waiting, and for what.
 */
export interface PendingStage {
  activity: string;
  attempt: number;
  /** The last attempt's failure: its code (the failure type) and message; null on a first attempt. */
  lastFailure: { code: string; message: string } | null;
  nextAttemptAt: Date | null;
  givesUpAt: Date | null;
  /** Items (chunks) done, as the stage's last heartbeat reported them; null before any. */
  done: number | null;
  /** The current attempt's items per second, from the same heartbeat; null before any. */
  perSecond: number | null;
  /** What the items are and how many in all, when the heartbeat says (CLEANING's OCR: pages); else chunks. */
  total: number | null;
  unit: string | null;
}

const dateOf = (time: google.protobuf.ITimestamp | null | undefined): Date | null =>
  time?.seconds == null ? null : new Date(Number(time.seconds) * 1000 + Math.floor((time.nanos ?? 0) / 1e6));

type HeartbeatProgress = Pick<PendingStage, 'done' | 'perSecond' | 'total' | 'unit'>;
const NO_PROGRESS: HeartbeatProgress = { done: null, perSecond: null, total: null, unit: null };

function progressOf(details: temporal.api.common.v1.IPayloads | null | undefined): HeartbeatProgress {
  const payload = details?.payloads?.[0];
  if (!payload) return NO_PROGRESS;
  try {
    const value = defaultPayloadConverter.fromPayload<Record<string, unknown> | null>(payload);
    const num = (v: unknown) => (typeof v === 'number' ? v : null);
    return {
      done: num(value?.done),
      perSecond: num(value?.perSecond),
      total: num(value?.total),
      unit: typeof value?.unit === 'string' ? value.unit : null,
    };
  } catch {
    return NO_PROGRESS;
  }
}

export function pendingStageOf(info: temporal.api.workflow.v1.IPendingActivityInfo): PendingStage {
  const failure = info.lastFailure;
  return {
    activity: info.activityType?.name ?? '?',
    attempt: info.attempt ?? 1,
    lastFailure: failure
      ? { code: failure.applicationFailureInfo?.type ?? failure.source ?? 'UNKNOWN', message: failure.message ?? '' }
      : null,
    nextAttemptAt: dateOf(info.nextAttemptScheduleTime),
    givesUpAt: dateOf(info.expirationTime),
    ...progressOf(info.heartbeatDetails),
  };
}

/** The pending activities of the document's open run (empty when it runs none, or is closed). */
export async function pendingStages(client: Client, documentId: string): Promise<PendingStage[]> {
  const described = await client.workflow.getHandle(ingestWorkflowId(documentId)).describe();
  if (described.status.name !== 'RUNNING') return [];
  return (described.raw.pendingActivities ?? []).map(pendingStageOf);
}

/** "waiting   vectorizing: attempt 7 after DEPENDENCY_UNAVAILABLE (…), next 12:05:31, gives up 13:03:00". */
export function formatPendingStage(stage: PendingStage, totalItems: number): string {
  const clock = (d: Date | null) => (d ? d.toISOString().slice(11, 19) : '-');
  const progress = stage.done === null ? '' : `, ${formatStageProgress({ ...stage, done: stage.done }, totalItems)}`;
  if (!stage.lastFailure) return `running   ${stage.activity}: attempt ${stage.attempt}${progress}`;
  return (
    `waiting   ${stage.activity}: attempt ${stage.attempt} after ${stage.lastFailure.code} (${stage.lastFailure.message})` +
    `, next ${clock(stage.nextAttemptAt)} UTC, gives up ${clock(stage.givesUpAt)} UTC${progress}`
  );
}

/**
 * "1200/5000 chunks done, 38.5/s, 1m39s left": the rate and the time left once the stage has a
 * rate. The heartbeat's own total and unit win (OCR's pages); otherwise `chunks` of the run's count.
 */
export function formatStageProgress(
  progress: Pick<PendingStage, 'perSecond' | 'total' | 'unit'> & { done: number },
  chunks: number,
): string {
  const total = progress.total ?? (progress.unit === null ? chunks : null);
  const head = `${progress.done}${total === null ? '' : `/${total}`} ${progress.unit ?? 'chunks'} done`;
  const { perSecond } = progress;
  if (perSecond === null || perSecond <= 0 || total === null) return head;
  return `${head}, ${perSecond}/s, ${formatDuration(Math.max(0, total - progress.done) / perSecond)} left`;
}

export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** "waiting for Postgres since 12:03:10 UTC, attempt 7 (VECTORIZING)": the run's own account (its progress query). */
export function formatWaiting(waiting: NonNullable<IngestProgress['waiting']>): string {
  const stage = waiting.stage === null ? '' : ` (${waiting.stage})`;
  return `waiting for ${waiting.for} since ${waiting.since.slice(11, 19)} UTC, attempt ${waiting.attempt}${stage}`;
}
