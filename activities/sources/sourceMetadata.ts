import type { DocumentMetadata } from '../../contracts/documentMetadata';
import { METADATA_KEY, METADATA_MAX_STRING } from '../../contracts/documentMetadata';

/** At most this many of a file's own metadata keys are kept: the document's metadata has 32 in all. */
const MAX_SOURCE_KEYS = 16;

/**
 * What a synced document's metadata says of its source (docs/sources.md): its path, its
 * modification time, and the source's own metadata of the file (S3 user metadata) as
 * `source.<key>`, keys made metadata-safe and values cut to the metadata bounds.
 */
export function sourceMetadata(path: string, mtime: string | null, own: Record<string, string> = {}): DocumentMetadata {
  const meta: DocumentMetadata = { sourcePath: path.slice(0, METADATA_MAX_STRING) };
  if (mtime !== null) meta.sourceModified = mtime;
  for (const [key, value] of Object.entries(own).slice(0, MAX_SOURCE_KEYS)) {
    const name = `source.${key.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 64);
    if (METADATA_KEY.test(name)) meta[name] = value.slice(0, METADATA_MAX_STRING);
  }
  return meta;
}
