import { decryptSecret } from '../../crypto/secretBox';
import { folderSettingsSchema, gitSettingsSchema, s3SettingsSchema, webSettingsSchema } from '../../contracts/sources';
import type { SourceRow } from '../../db/repositories/sources';
import type { OutboundPolicy } from '../../outbound/outboundHttp';
import { createFolderSource } from './folderSource';
import { createGitSource } from './gitSource';
import { createS3Source } from './s3Source';
import type { SourceReader } from './sourceReader';
import { createWebSource } from './webSource';

/** What readers need of the deployment: where they may read, how they reach out, what opens secrets. */
export interface SourceReaderOptions {
  /** SLUICE_SOURCE_FOLDER_ROOTS: folders (and file:// repositories) must be under one of these. */
  folderRoots: readonly string[];
  /** The keys a source's sealed credentials are opened with, the current one first. */
  keys: readonly Buffer[];
  /** Every web request and https git remote goes through it. */
  outbound: OutboundPolicy;
  /** Where git sources keep their mirrors. */
  mirrorDir: string;
}

/**
 * The reader of a source row: its settings parsed again (a row is only written validated, so a
 * failure here is a bug, not input), its sealed credentials opened with the deployment's keys.
 */
export function sourceReaderOf(row: SourceRow, options: SourceReaderOptions): SourceReader {
  switch (row.kind) {
    case 'folder':
      return createFolderSource(folderSettingsSchema.parse(row.config), options.folderRoots);
    case 's3':
      return createS3Source(
        s3SettingsSchema.parse(row.config),
        row.sealed_secret === null ? null : decryptSecret(options.keys, row.sealed_secret),
      );
    case 'git':
      return createGitSource(gitSettingsSchema.parse(row.config), options);
    case 'web':
      return createWebSource(webSettingsSchema.parse(row.config), options.outbound);
  }
}
