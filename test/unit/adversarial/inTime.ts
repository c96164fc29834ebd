/**
 * Jest cannot interrupt synchronous code: a parser that blocks for minutes still passes once it
 * returns, because the test settles before Jest's timeout timer gets a turn. One turn of the event
 * loop after the work lets an already expired timeout fire first, so work slower than the test
 * timeout fails the test, without the test measuring time itself. The work still runs to its
 * end: for a call that must be stopped (a runaway regex), testkit/harness/offThread.ts runs it on a
 * thread Jest can time out and terminate; this one suits work whose values cannot cross threads.
 */
export async function inTime<T>(work: () => T | Promise<T>): Promise<T> {
  const result = await work();
  await new Promise((resolve) => setTimeout(resolve, 0));
  return result;
}
