import { z } from 'zod';
import { duration, durationMs, durationOrOff, durationOrOffMs } from './durations';
import type { EnvOf } from './envShape';

/** How long runs wait and how the sweeps find what was left behind. */
export const runsEnv = {
  SLUICE_RETRY_WAIT: duration('30d, 12h, 90s or 500ms')
    .default('30d')
    .describe('How long a failed run waits for a `retry` signal before it closes.'),
  SLUICE_STUCK_AFTER: duration('30d, 12h, 90s or 500ms')
    .default('15m')
    .describe('A pending or processing task untouched this long, whose run is gone, is swept to INTERRUPTED_TASK.'),
  SLUICE_SWEEP_EVERY: durationOrOff('5m').default('5m').describe('How often the stuck-task sweep runs.'),
  SLUICE_ORPHAN_SWEEP_EVERY: durationOrOff('1h')
    .default('1h')
    .describe('How often the orphan sweep runs (objects no document refers to, abandoned partial uploads).'),
  SLUICE_ORPHAN_GRACE: duration('1h or 90m')
    .default('1h')
    .describe('How old what the orphan sweep removes must be; keep it above the longest upload.'),
  SLUICE_REBUILD_MAX_OPEN: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(4)
    .describe('Runs a dataset rebuild keeps open at once (docs/rebuild.md).'),
  SLUICE_SOURCE_FOLDER_ROOTS: z
    .string()
    .default('')
    .describe(
      'Comma-separated folders under which a `folder` source may be added (docs/sources.md); empty: no folder sources.',
    ),
  SLUICE_SOURCE_SYNC_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(4)
    .describe("Document runs one source's sync keeps open at once (docs/sources.md)."),
};

export interface RunsSettings {
  /** How long a failed run waits for a `retry` before it closes (a Temporal duration string). */
  retryWait: string;
  /** A PROCESSING task untouched this long, whose run is gone, is swept to INTERRUPTED_TASK. */
  stuckAfterMs: number;
  /** How often the stuck-task sweep schedule fires; null disables it (test workers). */
  sweepEveryMs: number | null;
  /**
   * The orphan sweep (objects no document row refers to, abandoned partial writes): how often its
   * schedule fires (null: off) and how old what it removes must be. The grace must exceed the
   * longest upload (the API's request timeout): an S3 multipart upload is dated from its start.
   */
  orphanSweep: { everyMs: number | null; graceMs: number };
  /**
   * A dataset rebuild (workflows/rebuildDataset.ts) keeps at most this many of its documents' runs
   * open at once; the next starts as one settles (docs/rebuild.md).
   */
  rebuildMaxOpen: number;
  /** Synced sources (docs/sources.md): the folders a folder source may be under, and a sync's open runs. */
  sources: { folderRoots: string[]; syncConcurrency: number };
}

export function runsSettings(e: EnvOf<typeof runsEnv>): RunsSettings {
  return {
    retryWait: e.SLUICE_RETRY_WAIT,
    stuckAfterMs: durationMs(e.SLUICE_STUCK_AFTER),
    sweepEveryMs: durationOrOffMs(e.SLUICE_SWEEP_EVERY),
    orphanSweep: {
      everyMs: durationOrOffMs(e.SLUICE_ORPHAN_SWEEP_EVERY),
      graceMs: durationMs(e.SLUICE_ORPHAN_GRACE),
    },
    rebuildMaxOpen: e.SLUICE_REBUILD_MAX_OPEN,
    sources: {
      folderRoots: e.SLUICE_SOURCE_FOLDER_ROOTS.split(',')
        .map((r) => r.trim())
        .filter((r) => r.length > 0),
      syncConcurrency: e.SLUICE_SOURCE_SYNC_CONCURRENCY,
    },
  };
}
