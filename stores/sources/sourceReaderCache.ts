import type { SourceRow } from '../../db/repositories/sources';
import type { SourceReader } from './sourceReader';

/** Readers kept per worker: one per source a worker syncs, far below what a deployment runs. */
const MAX_READERS = 64;

/**
 * One reader per source row version, reused by every activity of a sync on this worker: an S3
 * reader's client keeps its connections, a folder or web reader its listing between pages. A row
 * changed since (settings, secret, pause, the last sync's report) gets a new reader, so nothing a
 * reader keeps outlives the sync that made it. The least recently used reader beyond the cap is
 * dropped; its idle connections close at the store's keep-alive timeout.
 */
export function cachingReaders(build: (row: SourceRow) => SourceReader): (row: SourceRow) => SourceReader {
  const readers = new Map<string, { version: number; reader: SourceReader }>();
  return (row) => {
    const version = row.updated_at.getTime();
    const cached = readers.get(row.id);
    readers.delete(row.id);
    const kept = cached?.version === version ? cached : { version, reader: build(row) };
    readers.set(row.id, kept);
    const oldest = readers.keys().next().value;
    if (readers.size > MAX_READERS && oldest !== undefined) readers.delete(oldest);
    return kept.reader;
  };
}
