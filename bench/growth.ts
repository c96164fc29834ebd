/** How one path's time grows when its input doubles. */
export interface Growth {
  /** The fastest round's milliseconds per call at size n, and at 2n. */
  msAtN: number;
  msAt2N: number;
  /** msAt2N / msAtN: about 2 for linear work, 4 for quadratic. */
  ratio: number;
  /** Calls per timed round (the same at both sizes). */
  callsPerRound: number;
}

/**
 * Rounds per size. Each size's fastest round is its figure: load on a shared machine only ever adds
 * time, so the minimum is the closest to the path's own cost, and a quadratic step still shows in
 * it as a ratio near 4. With the median of 3, one CI run failed `chunk: han run` three attempts in
 * a row (49 → 185 ms, while 30 → 60 ms alone) when a burst of load outlasted two rounds.
 */
const ROUNDS = 5;

/**
 * Collects garbage before each round when node runs with --expose-gc (the npm script does): the
 * garbage of earlier rounds and inputs would otherwise be collected inside whichever round
 * crosses a heap limit, which lands on the larger input more often and inflates its time.
 */
const collectGarbage = (globalThis as { gc?: () => void }).gc ?? ((): void => undefined);

/**
 * A timed round repeats the call until it has taken at least this long at size n: shorter
 * timings are mostly timer and scheduler noise, which makes ratios swing.
 */
const MIN_ROUND_MS = 25;

/**
 * Times `call` on an input of size n and one of 2n: one warm-up call at each size (JIT, lazy
 * loads such as jieba's dictionary), then ROUNDS rounds that alternate the two sizes, so a change
 * of load on a shared machine hits both alike. Each round makes the same number of calls at
 * both sizes; the fastest round per size gives the ratio.
 */
export async function measureGrowth<I>(inputs: [I, I], call: (input: I) => unknown): Promise<Growth> {
  const [small, large] = inputs;
  await call(small);
  await call(large);
  const once = await timeRound(call, small, 1);
  const callsPerRound = Math.max(1, Math.ceil(MIN_ROUND_MS / Math.max(once, 0.01)));
  const atN: number[] = [];
  const at2N: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    atN.push((await timeRound(call, small, callsPerRound)) / callsPerRound);
    at2N.push((await timeRound(call, large, callsPerRound)) / callsPerRound);
  }
  const msAtN = fastest(atN);
  const msAt2N = fastest(at2N);
  return { msAtN, msAt2N, ratio: msAt2N / msAtN, callsPerRound };
}

async function timeRound<I>(call: (input: I) => unknown, input: I, calls: number): Promise<number> {
  collectGarbage();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await call(input);
  return performance.now() - started;
}

function fastest(values: number[]): number {
  return values.reduce((best, value) => Math.min(best, value), Infinity);
}
