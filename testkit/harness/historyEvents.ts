import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Activity types the run scheduled as normal activities (each one a task on the server). */
export function scheduledActivityTypes(events: HistoryEvent[]): string[] {
  return events.flatMap((e) => {
    const name = e.activityTaskScheduledEventAttributes?.activityType?.name;
    return name ? [name] : [];
  });
}

/**
 * The activity type a local-activity marker records, or undefined for any other event. A local
 * activity has no events of its own: its result is this marker, written with the workflow task
 * that ran it.
 */
export function localActivityType(event: HistoryEvent): string | undefined {
  const marker = event.markerRecordedEventAttributes;
  if (marker?.markerName !== 'core_local_activity') return undefined;
  const data = marker.details?.data?.payloads?.[0]?.data;
  return data
    ? (JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: string }).activity_type
    : undefined;
}

export function localActivityTypes(events: HistoryEvent[]): string[] {
  return events.flatMap((e) => {
    const type = localActivityType(e);
    return type ? [type] : [];
  });
}

/** The task queue of each normal activity the run scheduled, by activity type. */
export function scheduledActivityQueues(events: HistoryEvent[]): Array<[string, string]> {
  return events.flatMap((e): Array<[string, string]> => {
    const scheduled = e.activityTaskScheduledEventAttributes;
    const name = scheduled?.activityType?.name;
    return name ? [[name, scheduled?.taskQueue?.name ?? '']] : [];
  });
}
