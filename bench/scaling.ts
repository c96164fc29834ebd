/** One side's one round of the throughput bench, with the machine's load when it ended. */
export interface RoundFigure {
  round: number;
  docs: number;
  elapsedMs: number;
  docsPerS: number;
  /** The 1-minute load average at the end of the round (the machine may be shared). */
  load1: number;
}

export interface ScalingRow {
  side: string;
  workerProcesses: number | null;
  /** Median over rounds of the side's documents/s. */
  medianDocsPerS: number;
  /** Median over rounds of this side's documents/s over the one-worker side's in the same round. */
  medianRatioToOneWorker: number | null;
  /** Median over rounds of this side's documents/s over the plain loop's in the same round. */
  medianRatioToPlain: number;
  rounds: RoundFigure[];
}

/** The middle value (the mean of the two middle ones for an even count); 0 for none. */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Scaling figures from per-round figures. Every side ran every round and the order alternated
 * between rounds, so a round's ratio compares sides under the same load; the median over rounds
 * keeps a burst of load from elsewhere on the machine from deciding the figure.
 */
export function scalingRows(
  sides: { key: string; label: string; workerProcesses: number | null }[],
  rounds: Map<string, RoundFigure[]>,
  plainKey: string,
  oneWorkerKey: string | null,
): ScalingRow[] {
  const ratioPerRound = (key: string, baseKey: string): number[] => {
    const own = rounds.get(key) ?? [];
    const base = rounds.get(baseKey) ?? [];
    return own.flatMap((r, i) => {
      const b = base[i];
      return b && b.docsPerS > 0 ? [r.docsPerS / b.docsPerS] : [];
    });
  };
  const fixed = (n: number) => Number(n.toFixed(3));
  return sides.map(({ key, label, workerProcesses }) => ({
    side: label,
    workerProcesses,
    medianDocsPerS: fixed(median((rounds.get(key) ?? []).map((r) => r.docsPerS))),
    medianRatioToOneWorker:
      oneWorkerKey && workerProcesses !== null ? fixed(median(ratioPerRound(key, oneWorkerKey))) : null,
    medianRatioToPlain: fixed(median(ratioPerRound(key, plainKey))),
    rounds: rounds.get(key) ?? [],
  }));
}

/** The scaling table as printed on stderr and pasted into docs/benchmarks.md. */
export function renderScaling(rows: ScalingRow[]): string {
  const header =
    '| side | worker processes | documents/s (median of rounds) | ratio to 1 worker | ratio to plain loop |';
  const lines = rows.map(
    (r) =>
      `| ${r.side} | ${r.workerProcesses ?? '-'} | ${r.medianDocsPerS} | ${r.medianRatioToOneWorker ?? '-'} | ${r.medianRatioToPlain} |`,
  );
  return [header, '|---|---|---|---|---|', ...lines].join('\n');
}
