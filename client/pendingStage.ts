import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { google, temporal } from '@temporalio/proto';
import { ingestWorkflowId } from '../contracts/ingest';

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
}

const dateOf = (time: google.protobuf.ITimestamp | null | undefined): Date | null =>
  time?.seconds == null ? null : new Date(Number(time.seconds) * 1000 + Math.floor((time.nanos ?? 0) / 1e6));

function doneOf(details: temporal.api.common.v1.IPayloads | null | undefined): number | null {
  const payload = details?.payloads?.[0];
  if (!payload) return null;
  try {
    const value = defaultPayloadConverter.fromPayload<{ done?: unknown }>(payload);
    return typeof value?.done === 'number' ? value.done : null;
  } catch {
    return null;
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
    done: doneOf(info.heartbeatDetails),
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
  const progress = stage.done === null ? '' : `, ${stage.done}/${totalItems} chunks done`;
  if (!stage.lastFailure) return `running   ${stage.activity}: attempt ${stage.attempt}${progress}`;
  return (
    `waiting   ${stage.activity}: attempt ${stage.attempt} after ${stage.lastFailure.code} (${stage.lastFailure.message})` +
    `, next ${clock(stage.nextAttemptAt)} UTC, gives up ${clock(stage.givesUpAt)} UTC${progress}`
  );
}
