import { permanentError } from '../../contracts/sluiceError';
import { ledgerEntries, markSeen, type LedgerEntry } from '../../db/repositories/sourceEntries';
import { findSource } from '../../db/repositories/sources';
import type { SourceEntry } from '../../stores/sources/sourceReader';
import type { ActivityDeps } from '../deps';
import { readingSource } from './sourceErrors';

/** A listed file the sync must read: new, or its etag, mtime or size moved. */
export interface ListedEntry {
  path: string;
  etag: string | null;
  /** ISO time, as the listing gave it. */
  mtime: string | null;
  sizeBytes: number;
}

export interface DiffedPage {
  fetch: ListedEntry[];
  unchanged: number;
  listed: number;
  next: string | null;
}

/**
 * Unchanged by what the listing shows: the same size and etag where the source gives one, else
 * the same size and mtime. Cheap to tell; the content hash is only read for the rest.
 */
export function looksUnchanged(listed: SourceEntry, known: LedgerEntry | undefined): boolean {
  if (!known || Number(known.size_bytes) !== listed.sizeBytes) return false;
  if (listed.etag !== null) return known.etag === listed.etag;
  return known.mtime !== null && listed.mtime !== null && known.mtime.getTime() === listed.mtime.getTime();
}

/**
 * One page of the source's listing diffed against its ledger (docs/sources.md): what looks
 * unchanged is marked seen by this sync (so it is not taken for deleted), the rest is returned to
 * be read. Paths and sizes only: no content enters the workflow's history.
 */
export async function diffSourcePage(
  deps: Pick<ActivityDeps, 'db' | 'sources'>,
  input: { sourceId: string; syncId: string; cursor: string | null; limit: number },
): Promise<DiffedPage> {
  const row = await findSource(deps.db, input.sourceId);
  if (!row) throw permanentError('SOURCE_UNAVAILABLE', `source ${input.sourceId} was removed`);
  const reader = deps.sources.readerOf(row);
  const page = await readingSource(() => reader.list(input.cursor, input.limit));
  const known = new Map(
    (
      await ledgerEntries(
        deps.db,
        row.id,
        page.entries.map((e) => e.path),
      )
    ).map((e) => [e.path, e]),
  );
  const unchanged = page.entries.filter((e) => looksUnchanged(e, known.get(e.path)));
  await markSeen(
    deps.db,
    row.id,
    unchanged.map((e) => e.path),
    input.syncId,
  );
  const same = new Set(unchanged.map((e) => e.path));
  return {
    fetch: page.entries
      .filter((e) => !same.has(e.path))
      .map((e) => ({ path: e.path, etag: e.etag, mtime: e.mtime?.toISOString() ?? null, sizeBytes: e.sizeBytes })),
    unchanged: unchanged.length,
    listed: page.entries.length,
    next: page.next,
  };
}
