import { Context, log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { MAX_UNCLASSIFIED_ATTEMPTS } from '../contracts/outageBudget';
import { SluiceError } from '../contracts/sluiceError';
import { IllegalTransitionError } from '../db/repositories/pipelines';
import type { WaitingDetails } from '../contracts/stageWaiting';
import { isDependencyUnavailable, unavailableServer } from '../stores/dependencyUnavailable';
import { describeForLog, safeForTenant } from './failureText';

/**
 * The one place where errors become Temporal failures: classified errors keep their code and
 * permanence, and a transient one is retried by the activity's policy for the outage budget
 * (workflows/activityOptions.ts), after the wait its dependency asked for when it asked (Retry-After);
 * anything unclassified is INTERNAL_UNKNOWN_ERROR, retried MAX_UNCLASSIFIED_ATTEMPTS times (a bug
 * does not heal like an outage) so that it still ends in a terminal, explained state.
 *
 * The failure's message is what tenants end up reading in failure_reason, and it is kept in
 * workflow history: it carries no URL, address or credential, and no cause. The details (the
 * cause chain: a provider's answer, a host) go to the worker log, credentials blanked.
 */
export function toApplicationFailure(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof SluiceError) {
    logDetails(error.code, error);
    return ApplicationFailure.create({
      type: error.code,
      message: safeForTenant(error.message),
      nonRetryable: error.permanent,
      ...(error.permanent ? {} : { details: [waitingDetails(error)] }),
      ...(error.retryAfterMs !== null && !error.permanent ? { nextRetryDelay: error.retryAfterMs } : {}),
    });
  }
  if (error instanceof IllegalTransitionError) {
    return ApplicationFailure.create({ type: 'TASK_SUPERSEDED', message: error.message, nonRetryable: true });
  }
  if (isDependencyUnavailable(error)) {
    // A restart or failover of Postgres (or a cut to another server) is no bug: the attempt is
    // retried by the activity's policy once the server is back.
    logDetails('DEPENDENCY_UNAVAILABLE', error);
    const details = waitingDetails(error);
    return ApplicationFailure.create({
      type: 'DEPENDENCY_UNAVAILABLE',
      message: `${details.server ?? 'a server the worker depends on'} did not answer; the attempt is retried`,
      nonRetryable: false,
      details: [details],
    });
  }
  logDetails('INTERNAL_UNKNOWN_ERROR', error);
  // An unclassified error's message can be anything (a driver's connection string, a host): only its kind is shown.
  const kind = error instanceof Error ? error.name : typeof error;
  return ApplicationFailure.create({
    type: 'INTERNAL_UNKNOWN_ERROR',
    message: `unexpected ${safeForTenant(kind)} in the worker; the details are in the worker log`,
    nonRetryable: attemptNumber() >= MAX_UNCLASSIFIED_ATTEMPTS,
  });
}

/** The server a retryable error waits for, as far as the error says (contracts/stageWaiting.ts). */
function waitingDetails(error: unknown): WaitingDetails {
  const server = unavailableServer(error);
  if (server === null) return { server: null, port: null };
  return 'name' in server ? { server: server.name, port: null } : { server: null, port: server.port };
}

/** The activity's attempt (1 for the first); 1 outside an activity (a unit calling this directly). */
function attemptNumber(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}

function logDetails(code: string, error: unknown): void {
  // An unexpected error is a bug: its frames say where (they hold paths, never the message).
  const frames =
    code === 'INTERNAL_UNKNOWN_ERROR' && error instanceof Error
      ? (error.stack ?? '')
          .split('\n')
          .filter((line) => /^\s+at /.test(line))
          .slice(0, 12)
      : [];
  try {
    log.warn('activity attempt failed', {
      failureCode: code,
      details: describeForLog(error),
      ...(frames.length > 0 ? { stack: frames.join('\n') } : {}),
    });
  } catch {
    // Not inside an activity (a unit calling this directly): there is no worker log to write to.
  }
}

/**
 * An activity whose every error leaves through toApplicationFailure: the one mapping, for the
 * activities that do not run through the stage template (which maps and records the failure).
 */
export function mappingFailures<A extends unknown[], R>(
  activity: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    try {
      return await activity(...args);
    } catch (error) {
      throw toApplicationFailure(error);
    }
  };
}
