import { createHash } from 'node:crypto';

/**
 * A search's page cursor: where the next page starts in the fused order, and a fingerprint of the
 * search it belongs to (query, datasets, filter, threshold), so a cursor given to another search
 * is refused rather than answered with an unrelated page. Not a secret: it says only an offset.
 */
export interface SearchIdentity {
  query: string;
  datasets: string[];
  filter: unknown;
  minScore: number | undefined;
}

function fingerprint(search: SearchIdentity): string {
  const canonical = JSON.stringify([
    search.query,
    [...search.datasets].sort(),
    search.filter ?? null,
    search.minScore ?? null,
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

export function encodeSearchCursor(search: SearchIdentity, offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fingerprint(search) })).toString('base64url');
}

export class CursorInvalid extends Error {
  override readonly name = 'CursorInvalid';
}

/** The offset a cursor names; throws CursorInvalid when it is malformed or of another search. */
export function decodeSearchCursor(search: SearchIdentity, cursor: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new CursorInvalid('cursor: not a search cursor');
  }
  const { o, f } = (parsed ?? {}) as { o?: unknown; f?: unknown };
  if (typeof o !== 'number' || !Number.isInteger(o) || o < 0 || typeof f !== 'string')
    throw new CursorInvalid('cursor: not a search cursor');
  if (f !== fingerprint(search))
    throw new CursorInvalid('cursor: it belongs to another search (query, datasets, filter or minScore differ)');
  return o;
}
