import type { LogEntry } from '@temporalio/worker';
import { ACTIVITY_ONLY_WORKER_NOTICE, SluiceRuntimeLogger } from '../../worker/runtimeLogging';

function collecting(level: 'DEBUG' | 'WARN'): { logger: SluiceRuntimeLogger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return { logger: new SluiceRuntimeLogger(level, (entry) => entries.push(entry)), entries };
}

describe('SluiceRuntimeLogger', () => {
  it("keeps the activity-only Worker's notice out of a WARN log", () => {
    const { logger, entries } = collecting('WARN');
    logger.warn(ACTIVITY_ONLY_WORKER_NOTICE, { taskQueue: 'sluice-ingest-embedding' });
    expect(entries).toEqual([]);
  });

  it('still logs that notice at DEBUG', () => {
    const { logger, entries } = collecting('DEBUG');
    logger.warn(ACTIVITY_ONLY_WORKER_NOTICE, { taskQueue: 'sluice-ingest-embedding' });
    expect(entries.map((e) => [e.level, e.message])).toEqual([['DEBUG', ACTIVITY_ONLY_WORKER_NOTICE]]);
  });

  it('passes every other warning through as a warning', () => {
    const { logger, entries } = collecting('WARN');
    logger.warn('[TMPRL1104] run:4:1 Workflow task duration exceeded 5 seconds.');
    expect(entries.map((e) => e.level)).toEqual(['WARN']);
  });
});
