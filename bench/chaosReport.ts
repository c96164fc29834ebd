import type { Client } from '@temporalio/client';
import { ingestWorkflowId } from '../contracts/ingest';
import { FAULT_KINDS, type FaultRecord } from './chaosFaults';

/** Faults by kind: how many, and the longest and total time the dependency was down. */
export function faultsByKind(records: FaultRecord[]) {
  return Object.fromEntries(
    FAULT_KINDS.map((kind) => {
      const mine = records.filter((r) => r.kind === kind);
      return [
        kind,
        {
          count: mine.length,
          totalDownMs: mine.reduce((sum, r) => sum + r.downMs, 0),
          maxDownMs: Math.max(0, ...mine.map((r) => r.downMs)),
        },
      ];
    }),
  );
}

/**
 * Failed and timed-out activity attempts in the documents' histories (every run of each, after
 * continue-as-new too), by failure type: the retries Temporal made on the soak's behalf.
 */
export async function activityRetries(client: Client, documentIds: string[]): Promise<Record<string, number>> {
  const tally: Record<string, number> = {};
  const add = (key: string) => (tally[key] = (tally[key] ?? 0) + 1);
  for (const id of documentIds) {
    const history = await client.workflow
      .getHandle(ingestWorkflowId(id))
      .fetchHistory()
      .catch(() => null);
    for (const event of history?.events ?? []) {
      const failed = event.activityTaskFailedEventAttributes;
      if (failed) add(failed.failure?.applicationFailureInfo?.type || failed.failure?.message || 'failed');
      if (event.activityTaskTimedOutEventAttributes) add('timed out');
      if (event.workflowTaskTimedOutEventAttributes || event.workflowTaskFailedEventAttributes) add('workflow task');
    }
  }
  return tally;
}

/** The table for a report: one row per fault kind. */
export function faultTable(byKind: ReturnType<typeof faultsByKind>): string {
  const rows = Object.entries(byKind).map(
    ([kind, f]) =>
      `| ${kind} | ${f.count} | ${(f.totalDownMs / 1000).toFixed(1)} | ${(f.maxDownMs / 1000).toFixed(1)} |`,
  );
  return ['| fault | count | total down (s) | longest (s) |', '|---|---|---|---|', ...rows].join('\n');
}
