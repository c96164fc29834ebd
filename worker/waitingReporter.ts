import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { isFailureCode } from '../contracts/failureCodes';
import { INGEST_WORKFLOW_TYPE } from '../contracts/ingest';
import { stageWaitingSignal, waitingForCode, type WaitingDetails } from '../contracts/stageWaiting';

/** A report is a courtesy: an attempt never waits longer than this for it to reach the server. */
const REPORT_TIMEOUT_MS = 2000;

/** Delivery to the webhook runs after the run's end: its waiting is the outbox row's, not the run's. */
const NOT_REPORTED = new Set(['notifyResult', 'recordNotifyFailure']);

/**
 * Tells a document's run that one of its activities failed and will be retried, and what it waits
 * for (the run shows it in its progress and its WaitingFor search attribute). An activity's retries
 * are the server's business and the workflow never sees them; this interceptor, on every
 * activity's way out, is the one place that does.
 */
export function waitingReporter(
  client: Client,
  nameOfPort: (port: number) => string | null,
): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        try {
          return await next(input);
        } catch (error) {
          await report(client, ctx, error, nameOfPort);
          throw error;
        }
      },
    },
  });
}

async function report(
  client: Client,
  ctx: Context,
  error: unknown,
  nameOfPort: (port: number) => string | null,
): Promise<void> {
  const { info } = ctx;
  if (!(error instanceof ApplicationFailure) || error.nonRetryable || !isFailureCode(error.type)) return;
  if (info.workflowType !== INGEST_WORKFLOW_TYPE || !info.workflowExecution || NOT_REPORTED.has(info.activityType))
    return;
  // A cancelled or shut-down attempt is not an outage.
  if (ctx.cancellationSignal.aborted && !ctx.cancellationDetails?.workerShutdown) return;
  const details = (error.details?.[0] ?? null) as Partial<WaitingDetails> | null;
  const named = details?.server ?? (typeof details?.port === 'number' ? nameOfPort(details.port) : null);
  const { workflowId, runId } = info.workflowExecution;
  const signal = client.workflow
    .getHandle(workflowId, runId)
    .signal(stageWaitingSignal, {
      waitingFor: named ?? waitingForCode(error.type),
      code: error.type,
      attempt: info.attempt,
    })
    .catch(() => undefined);
  const timeout = new AbortController();
  await Promise.race([signal, sleep(REPORT_TIMEOUT_MS, undefined, { signal: timeout.signal }).catch(() => undefined)]);
  timeout.abort();
}
