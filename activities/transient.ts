import type { FailureCode } from '../contracts/failureCodes';
import { SluiceError, transientError } from '../contracts/sluiceError';

/**
 * Runs one step of a stage: an error the step already classified passes through as it is;
 * anything else (a driver's or client's error: the network, a 5xx) becomes the stage's transient
 * `code`, "<what> failed: …", which the retry policy retries.
 */
export async function orTransient<T>(code: FailureCode, what: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    if (error instanceof SluiceError) throw error;
    throw transientError(code, `${what} failed: ${String(error)}`, error);
  }
}
