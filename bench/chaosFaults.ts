import type { PrivatePostgres } from '../testkit/harness/privatePostgres';
import type { PrivateTemporal } from '../testkit/harness/privateTemporal';
import type { TcpProxy } from '../testkit/harness/tcpProxy';

export const FAULT_KINDS = ['worker-kill', 'postgres-restart', 'temporal-restart', 'opensearch-cut', 's3-cut'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRecord {
  kind: FaultKind;
  /** Milliseconds since the soak started. */
  atMs: number;
  /** How long the dependency was down (for a worker kill: until its replacement was spawned). */
  downMs: number;
}

export interface FaultTargets {
  /** SIGKILLs one running worker and spawns its replacement; resolves once both are done. */
  killWorker(): Promise<void>;
  postgres: PrivatePostgres;
  temporal: PrivateTemporal;
  opensearch: TcpProxy;
  s3: TcpProxy;
}

/** Every kind `each` times, shuffled (Fisher-Yates), so the order of faults is random but the counts are exact. */
export function faultSchedule(each: number, random: () => number): FaultKind[] {
  const kinds = FAULT_KINDS.flatMap((kind) => Array.from({ length: each }, () => kind));
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j] as FaultKind, kinds[i] as FaultKind];
  }
  return kinds;
}

export interface Timing {
  /** Pause before each fault, ms: uniform in [min, max]. */
  gapMs: [number, number];
  /** How long a dependency stays down, ms: uniform in [min, max]. */
  outageMs: [number, number];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (random: () => number, [min, max]: [number, number]) => Math.round(min + random() * (max - min));

/** Takes one dependency down for `outage` ms and brings it back. */
async function strike(kind: FaultKind, targets: FaultTargets, outage: number): Promise<void> {
  switch (kind) {
    case 'worker-kill':
      return targets.killWorker();
    case 'postgres-restart':
      await targets.postgres.kill();
      await sleep(outage);
      return targets.postgres.start();
    case 'temporal-restart':
      await targets.temporal.kill();
      await sleep(outage);
      return targets.temporal.start();
    case 'opensearch-cut':
      await targets.opensearch.cut();
      await sleep(outage);
      return targets.opensearch.restore();
    case 's3-cut':
      await targets.s3.cut();
      await sleep(outage);
      return targets.s3.restore();
  }
}

/**
 * The injector: the schedule's faults one after another, each after a random pause, each
 * dependency down for a random time. Faults never overlap, so each one's effect is its own.
 */
export async function injectFaults(
  schedule: readonly FaultKind[],
  targets: FaultTargets,
  timing: Timing,
  random: () => number,
  startedAt: number,
  onFault: (record: FaultRecord) => void = () => undefined,
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  for (const kind of schedule) {
    await sleep(between(random, timing.gapMs));
    const at = Date.now();
    await strike(kind, targets, between(random, timing.outageMs));
    const record = { kind, atMs: at - startedAt, downMs: Date.now() - at };
    records.push(record);
    onFault(record);
  }
  return records;
}
