import { isDependencyUnavailable } from '../stores/dependencyUnavailable';
import type { DependencyLog } from './adapters';

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Waits `ms`, or rejects at once when the process is asked to stop meanwhile. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(new Error('stopped while waiting for a dependency'));
    };
    const timer = setTimeout(() => {
      for (const signal of STOP_SIGNALS) process.off(signal, stop);
      resolve();
    }, ms);
    for (const signal of STOP_SIGNALS) process.once(signal, stop);
  });
}

/**
 * A process's start-up step that needs a dependency (migrating the schema, connecting to
 * Temporal): while the dependency is restarting or cut off, it is retried with back-off (0.5 s
 * doubling to 10 s) instead of ending the process, so a worker started during an outage (the
 * replacement of a crashed one) waits and then polls. Any other error ends the start-up as before.
 */
export async function untilAvailable<T>(what: string, step: () => Promise<T>, log: DependencyLog): Promise<T> {
  for (let delay = FIRST_DELAY_MS; ; delay = Math.min(delay * 2, MAX_DELAY_MS)) {
    try {
      return await step();
    } catch (error) {
      if (!isDependencyUnavailable(error)) throw error;
      log(
        `${what}: a dependency is unavailable (${error instanceof Error ? error.name : 'error'}); retrying in ${delay} ms`,
      );
      await pause(delay);
    }
  }
}
