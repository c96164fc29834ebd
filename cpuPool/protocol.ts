import { isFailureCode } from '../contracts/failureCodes';
import { SluiceError } from '../contracts/sluiceError';

/**
 * What crosses the thread boundary. Errors are structured-cloned without their own properties
 * (a SluiceError's code, an errno's syscall), so tasks reply with data and the pool revives it.
 */
export type ThreadError =
  | { kind: 'classified'; code: string; message: string; permanent: boolean }
  | { kind: 'io'; code?: string; syscall?: string; message: string }
  | { kind: 'other'; message: string };

export type TaskReply<T> = { ok: true; value: T } | { ok: false; error: ThreadError };

/** Every task carries an id the thread announces when it starts, so the time limit counts running, not queueing. */
export interface Task<P> {
  taskId: number;
  payload: P;
}

/** The thread's "task started" message on its parentPort (piscina re-emits it as the pool's 'message'). */
export interface StartedMessage {
  sluiceTaskStarted: number;
}

export function isStartedMessage(message: unknown): message is StartedMessage {
  return (
    typeof message === 'object' && message !== null && typeof (message as StartedMessage).sluiceTaskStarted === 'number'
  );
}

export async function replyOf<T>(work: () => T | Promise<T>): Promise<TaskReply<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}

function describe(error: unknown): ThreadError {
  if (error instanceof SluiceError)
    return { kind: 'classified', code: error.code, message: error.message, permanent: error.permanent };
  const errno = error as NodeJS.ErrnoException;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof errno?.syscall === 'string') return { kind: 'io', code: errno.code, syscall: errno.syscall, message };
  return { kind: 'other', message };
}

/** Classified errors come back classified; anything else stays an unclassified Error for the stage to judge. */
export function revive(error: ThreadError): Error {
  if (error.kind === 'classified' && isFailureCode(error.code))
    return new SluiceError(error.code, error.message, error.permanent);
  const plain = new Error(error.message) as NodeJS.ErrnoException;
  if (error.kind === 'io') Object.assign(plain, { code: error.code, syscall: error.syscall });
  return plain;
}
