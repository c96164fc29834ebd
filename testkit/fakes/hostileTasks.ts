import { parentPort } from 'node:worker_threads';
import { permanentError } from '../../contracts/sluiceError';
import { replyOf, type StartedMessage, type Task, type TaskReply } from '../../cpuPool/protocol';

/**
 * Tasks that misbehave the ways a hostile document can make a parser misbehave, run by a
 * ThreadPool in tests (cpuPool/tasks.ts has the real ones; these follow the same protocol).
 */

function started(taskId: number): void {
  parentPort?.postMessage({ sluiceTaskStarted: taskId } satisfies StartedMessage);
}

export function echo({ taskId, payload }: Task<string>): Promise<TaskReply<string>> {
  started(taskId);
  return replyOf(() => payload);
}

/** A synchronous loop that never yields: only terminating the thread stops it. */
export function spin({ taskId }: Task<null>): never {
  started(taskId);
  for (;;) {
    // Nothing: the thread is busy forever.
  }
}

/** Busy for `payload` ms, then answers: a legitimate task that takes its time. */
export function busy({ taskId, payload }: Task<number>): Promise<TaskReply<number>> {
  started(taskId);
  const until = Date.now() + payload;
  while (Date.now() < until) {
    // Busy on purpose: holds the thread like a long parse.
  }
  return replyOf(() => payload);
}

/** Allocates until the thread's heap cap is hit. */
export function hog({ taskId }: Task<null>): never {
  started(taskId);
  const hoard: number[][] = [];
  for (;;) hoard.push(new Array<number>(100_000).fill(hoard.length));
}

export function exit({ taskId }: Task<null>): never {
  started(taskId);
  process.exit(3);
}

export function refuse({ taskId }: Task<null>): Promise<TaskReply<never>> {
  started(taskId);
  return replyOf(() => {
    throw permanentError('CORRUPT_DOCUMENT', 'the test file is damaged');
  });
}
