import type { Readable } from 'node:stream';
import picomatch from 'picomatch';

/** One file of a source as its listing shows it: enough to tell a change without reading it. */
export interface SourceEntry {
  /** Relative to the source's root (a folder's path, an S3 prefix), `/`-separated. */
  path: string;
  etag: string | null;
  mtime: Date | null;
  sizeBytes: number;
}

/** A source's files in path order, a page at a time, and a file's bytes (docs/sources.md). */
export interface SourceReader {
  /** Names the source in messages: its kind and place, never a credential. */
  readonly name: string;
  /** The entries after `cursor` (a path; null: from the start), at most `limit`; `next` null at the end. */
  list(cursor: string | null, limit: number): Promise<{ entries: SourceEntry[]; next: string | null }>;
  open(path: string): Promise<Readable>;
  /** What the source keeps about the file beyond its bytes (S3 user metadata); absent where it keeps nothing. */
  metadataOf?(path: string): Promise<Record<string, string>>;
}

/** A path filter from the source's include globs; every path without any. */
export function includeFilter(globs: readonly string[] | undefined): (path: string) => boolean {
  if (!globs || globs.length === 0) return () => true;
  const matchers = globs.map((g) => picomatch(g, { dot: false }));
  return (path) => matchers.some((m) => m(path));
}

/** A source's listing failed or its file could not be read; `permanent` when waiting will not help. */
export class SourceUnavailable extends Error {
  override readonly name = 'SourceUnavailable';
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
