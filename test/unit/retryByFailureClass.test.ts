import { ApplicationFailure, TimeoutFailure, TimeoutType } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { toApplicationFailure } from '../../activities/toApplicationFailure';
import { MAX_UNCLASSIFIED_ATTEMPTS } from '../../contracts/outageBudget';
import { permanentError, transientError } from '../../contracts/sluiceError';
import { classifyFailure } from '../../workflows/classifyFailure';

// Retries by failure class (workflows/activityOptions.ts): the policy bounds transient failures by
// time; what the activity says decides the rest.

const failureAt = (attempt: number, error: unknown): Promise<ApplicationFailure> =>
  new MockActivityEnvironment({ attempt }).run(() =>
    Promise.resolve(toApplicationFailure(error)),
  ) as Promise<ApplicationFailure>;

describe('toApplicationFailure', () => {
  it('keeps a transient failure retryable at any attempt, and a permanent one not', async () => {
    expect((await failureAt(40, transientError('VECTORIZING_FAILED', 'provider down'))).nonRetryable).toBe(false);
    expect((await failureAt(1, permanentError('CORRUPT_DOCUMENT', 'bad file'))).nonRetryable).toBe(true);
  });

  it('stops retrying an unclassified error (a bug, not an outage) after a few attempts', async () => {
    const bug = new TypeError('x is undefined');
    const early = await failureAt(MAX_UNCLASSIFIED_ATTEMPTS - 1, bug);
    expect(early).toMatchObject({ type: 'INTERNAL_UNKNOWN_ERROR', nonRetryable: false });
    const last = await failureAt(MAX_UNCLASSIFIED_ATTEMPTS, bug);
    expect(last).toMatchObject({ type: 'INTERNAL_UNKNOWN_ERROR', nonRetryable: true });
  });

  it("waits what a provider's Retry-After asked for before the next attempt", async () => {
    const failure = await failureAt(2, transientError('VECTORIZING_FAILED', 'rate limited', undefined, 90_000));
    expect(failure.nextRetryDelay).toBe(90_000);
    expect((await failureAt(2, transientError('VECTORIZING_FAILED', 'down'))).nextRetryDelay).toBeUndefined();
  });
});

describe('classifyFailure', () => {
  it("names the last attempt's code when the outage budget ran out", () => {
    const last = ApplicationFailure.create({ type: 'DEPENDENCY_UNAVAILABLE', message: 'postgres down' });
    const timeout = new TimeoutFailure('activity timeout', undefined, TimeoutType.SCHEDULE_TO_CLOSE);
    Object.assign(timeout, { cause: last });
    expect(classifyFailure(timeout, 'VECTORIZING')).toEqual({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'still failing after the outage budget: postgres down',
    });
    const bare = new TimeoutFailure('activity timeout', undefined, TimeoutType.START_TO_CLOSE);
    expect(classifyFailure(bare, 'VECTORIZING').code).toBe('VECTORIZING_FAILED');
  });
});
