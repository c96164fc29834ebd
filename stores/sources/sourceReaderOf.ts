import { decryptSecret } from '../../crypto/secretBox';
import { folderSettingsSchema, s3SettingsSchema } from '../../contracts/sources';
import type { SourceRow } from '../../db/repositories/sources';
import { createFolderSource } from './folderSource';
import { createS3Source } from './s3Source';
import type { SourceReader } from './sourceReader';

/**
 * The reader of a source row: its settings parsed again (a row is only written validated, so a
 * failure here is a bug, not input), its sealed credentials opened with the deployment's keys.
 */
export function sourceReaderOf(row: SourceRow, folderRoots: readonly string[], keys: readonly Buffer[]): SourceReader {
  if (row.kind === 'folder') return createFolderSource(folderSettingsSchema.parse(row.config), folderRoots);
  const secret = row.sealed_secret === null ? null : decryptSecret(keys, row.sealed_secret);
  return createS3Source(s3SettingsSchema.parse(row.config), secret);
}
