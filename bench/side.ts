import type { Stage } from '../contracts/stages';
import type { BenchDoc } from './plainPipeline';

/** One document's outcome on either side of the bench. */
export interface DocOutcome {
  ms: number;
  chunks: number;
  /** null on success, else the failure code (or message, on side a). */
  error: string | null;
}

export interface RoundResult {
  elapsedMs: number;
  docs: DocOutcome[];
}

export interface SideTotals {
  /** Each measured process: peak RSS over the whole bench, CPU used while documents ran. */
  processes: { peakRssBytes: number; cpuSeconds: number }[];
  stageMsTotal: Record<Stage, number>;
  history?: {
    sampled: number;
    meanBytes: number;
    maxBytes: number;
    meanEvents: number;
    maxEvents: number;
    largestDocumentBytes: number;
  };
  /** The sluice_* series the workers' Prometheus endpoints served at the end. */
  metrics?: string[];
}

/**
 * A way of ingesting documents that the bench compares. Rounds of the sides are interleaved
 * (a b, b a, a b...), so a change of load on this shared machine falls on both sides alike.
 */
export interface BenchSide {
  label: string;
  workerProcesses: number;
  /** Pause after a round so Postgres has published the round's row counts (pgWrites.ts). */
  settleMs: number;
  runRound(docs: BenchDoc[]): Promise<RoundResult>;
  finish(): Promise<SideTotals>;
}
