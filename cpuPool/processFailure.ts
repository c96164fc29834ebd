import { permanentError, transientError, type SluiceError } from '../contracts/sluiceError';
import type { ProcessLimits } from './processLimits';
import type { LimitFailures } from './threadPool';

/** How V8 says, on stderr, that a process ran out of heap before it aborts. */
const HEAP_EXHAUSTED = /heap out of memory|Reached heap limit/;

/** Why a child process ended mid-task, as the stage's failure: the limit it hit, or a crash. */
export function exitFailure(ended: {
  failures: LimitFailures;
  limits: ProcessLimits;
  timeLimit: { ms: number; setting: string };
  /** The pool killed it: at the time limit, or past the memory limit. */
  verdict: 'timeout' | 'memory' | undefined;
  stderr: string;
  /** Its signal, or `exit <code>`. */
  exit: string;
}): SluiceError {
  const { failures, limits, timeLimit, verdict, stderr } = ended;
  const { what } = failures;
  if (verdict === 'timeout')
    return permanentError(
      failures.timeout,
      `${what} took longer than the ${timeLimit.ms} ms limit (${timeLimit.setting})`,
    );
  if (verdict === 'memory')
    return permanentError(
      failures.heap,
      `${what} needs more than the ${limits.maxMemoryMb} MB memory limit (SLUICE_PARSE_MEMORY_MB)`,
    );
  if (HEAP_EXHAUSTED.test(stderr))
    return permanentError(
      failures.heap,
      `${what} needs more than the ${limits.maxHeapMb} MB heap (SLUICE_PARSE_HEAP_MB)`,
    );
  const tail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 300);
  return permanentError(failures.crash, `${what} crashed its process (${ended.exit}): ${tail}`);
}

/** Says nothing about the document: another attempt, on a worker that is not stopping, will do. */
export function shuttingDown(failures: LimitFailures): SluiceError {
  return transientError(failures.crash, `${failures.what} was cut short: the worker is shutting down`);
}
