import { decryptSecret } from '../../crypto/secretBox';
import { folderSettingsSchema, s3SettingsSchema } from '../../contracts/sources';
import type { SourceRow } from '../../db/repositories/sources';
import { createFolderSource } from './folderSource';
import { createS3Source } from './s3Source';
import { SourceUnavailable, type SourceReader } from './sourceReader';

/**
 * The reader of a source row: its settings parsed again (a row is only written validated, so a
 * failure here is a bug, not input), its sealed credentials opened with the deployment's keys.
 */
export function sourceReaderOf(row: SourceRow, folderRoots: readonly string[], keys: readonly Buffer[]): SourceReader {
  switch (row.kind) {
    case 'folder':
      return createFolderSource(folderSettingsSchema.parse(row.config), folderRoots);
    case 's3':
      return createS3Source(
        s3SettingsSchema.parse(row.config),
        row.sealed_secret === null ? null : decryptSecret(keys, row.sealed_secret),
      );
    default:
      throw new SourceUnavailable(`sources of kind ${row.kind} cannot be read by this worker`, true);
  }
}
