import { defaultPayloadConverter } from '@temporalio/common';
import Long from 'long';
import {
  formatDuration,
  formatPendingStage,
  formatStageProgress,
  formatWaiting,
  pendingStageOf,
} from '../../client/pendingStage';

// What `sluice status` says of a run's current activity, read from the server's pending-activity info.

const at = (iso: string) => ({ seconds: Long.fromNumber(Date.parse(iso) / 1000), nanos: 0 });

it('says a retrying stage waits, for what, until when, and how far its heartbeats got', () => {
  const stage = pendingStageOf({
    activityType: { name: 'vectorizing' },
    attempt: 7,
    lastFailure: {
      message: 'a server the worker depends on did not answer; the attempt is retried',
      applicationFailureInfo: { type: 'DEPENDENCY_UNAVAILABLE' },
    },
    nextAttemptScheduleTime: at('2026-12-07T12:05:31Z'),
    expirationTime: at('2026-12-07T13:03:00Z'),
    heartbeatDetails: { payloads: [defaultPayloadConverter.toPayload({ lastChunkIndex: 1199, done: 1200 })] },
  });
  expect(stage).toMatchObject({ activity: 'vectorizing', attempt: 7, done: 1200 });
  expect(formatPendingStage(stage, 5000)).toBe(
    'waiting   vectorizing: attempt 7 after DEPENDENCY_UNAVAILABLE (a server the worker depends on did not answer; the attempt is retried), next 12:05:31 UTC, gives up 13:03:00 UTC, 1200/5000 chunks done',
  );
});

it('says a first attempt runs, without a failure or a progress it has not reported', () => {
  const stage = pendingStageOf({ activityType: { name: 'cleaning' }, attempt: 1 });
  expect(formatPendingStage(stage, 0)).toBe('running   cleaning: attempt 1');
});

it('gives a long stage its rate and time left from the attempt rate its heartbeat carries', () => {
  const stage = pendingStageOf({
    activityType: { name: 'vectorizing' },
    attempt: 1,
    heartbeatDetails: {
      payloads: [defaultPayloadConverter.toPayload({ lastChunkIndex: 999, done: 1000, perSecond: 12.5 })],
    },
  });
  expect(stage).toMatchObject({ done: 1000, perSecond: 12.5 });
  // 4,000 chunks left at 12.5/s: 320 s.
  expect(formatPendingStage(stage, 5000)).toBe(
    'running   vectorizing: attempt 1, 1000/5000 chunks done, 12.5/s, 5m20s left',
  );
  expect(formatStageProgress({ done: 10, perSecond: 0, total: null, unit: null }, 20)).toBe('10/20 chunks done');
  // CLEANING's OCR: its heartbeat names the pages and their count.
  expect(formatStageProgress({ done: 12, perSecond: 0.2, total: 300, unit: 'pages' }, 0)).toBe(
    '12/300 pages done, 0.2/s, 24m00s left',
  );
  // A multi-frame image: no count known ahead, so no time left.
  expect(formatStageProgress({ done: 3, perSecond: 0.5, total: null, unit: 'pages' }, 0)).toBe('3 pages done');
  expect(formatDuration(7384)).toBe('2h03m');
});

it("says what the run waits for, since when and at which attempt, from the run's progress", () => {
  expect(
    formatWaiting({
      for: 'Postgres',
      code: 'DEPENDENCY_UNAVAILABLE',
      stage: 'VECTORIZING',
      attempt: 7,
      since: '2026-12-07T12:03:10.000Z',
    }),
  ).toBe('waiting for Postgres since 12:03:10 UTC, attempt 7 (VECTORIZING)');
});
