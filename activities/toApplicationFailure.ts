import { ApplicationFailure } from '@temporalio/common';
import { SluiceError } from '../contracts/sluiceError';
import { IllegalTransitionError } from '../db/repositories/pipelines';

/**
 * The one place where errors become Temporal failures: classified errors keep their code and
 * permanence; anything unclassified is INTERNAL_UNKNOWN_ERROR (retryable, message kept) so that
 * a bug still ends in a terminal, explained state instead of a silent hang.
 */
export function toApplicationFailure(error: unknown): ApplicationFailure {
  if (error instanceof ApplicationFailure) return error;
  if (error instanceof SluiceError) {
    return ApplicationFailure.create({ type: error.code, message: error.message, nonRetryable: error.permanent, cause: asError(error.cause) });
  }
  if (error instanceof IllegalTransitionError) {
    return ApplicationFailure.create({ type: 'TASK_SUPERSEDED', message: error.message, nonRetryable: true });
  }
  const cause = asError(error);
  return ApplicationFailure.create({
    type: 'INTERNAL_UNKNOWN_ERROR',
    message: cause?.message ?? String(error),
    nonRetryable: false,
    cause,
  });
}

function asError(value: unknown): Error | undefined {
  if (value === undefined || value === null) return undefined;
  return value instanceof Error ? value : new Error(String(value));
}
