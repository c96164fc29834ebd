import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { isFailureCode, STAGE_DEFAULT_FAILURE, type FailureCode } from '../contracts/failureCodes';
import type { Stage } from '../contracts/stages';

export interface ClassifiedFailure {
  code: FailureCode;
  message: string;
}

/**
 * Turns what an activity finally failed with into one failure code: the activity's own code
 * when it set one, the stage's default for a timeout, and INTERNAL_UNKNOWN_ERROR otherwise.
 */
export function classifyFailure(error: unknown, stage: Stage | null): ClassifiedFailure {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && isFailureCode(cause.type)) {
    return { code: cause.type, message: cause.message };
  }
  // The outage budget ran out (the schedule-to-close timeout): the last attempt's failure says why.
  if (cause instanceof TimeoutFailure && cause.cause instanceof ApplicationFailure && isFailureCode(cause.cause.type)) {
    return { code: cause.cause.type, message: `still failing after the outage budget: ${cause.cause.message}` };
  }
  if (cause instanceof TimeoutFailure) {
    return {
      code: stage ? STAGE_DEFAULT_FAILURE[stage] : 'INTERNAL_UNKNOWN_ERROR',
      message: `timed out (${cause.timeoutType})`,
    };
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return { code: 'INTERNAL_UNKNOWN_ERROR', message };
}
