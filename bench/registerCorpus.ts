import fs from 'node:fs';
import { Readable } from 'node:stream';
import { registerDocument } from '../testkit/harness/registerDocument';
import type { Adapters } from '../composition/adapters';
import type { CorpusFile } from './corpus';
import type { BenchDoc } from './plainPipeline';
import { runWindow } from './window';

/**
 * Uploads the corpus into one dataset the way a client does (object + documents row). Each side
 * of the bench gets its own copy, so neither finds the other's rows or vectors; registration is
 * not part of what is timed.
 */
export async function registerCorpus(
  adapters: Pick<Adapters, 'db' | 'objects'>,
  files: CorpusFile[],
  scope: { userId: string; datasetId: string },
): Promise<BenchDoc[]> {
  const { items } = await runWindow(files, 8, async (file) => {
    const body =
      'path' in file.source ? fs.createReadStream(file.source.path) : Readable.from([Buffer.from(file.source.text)]);
    const row = await registerDocument(adapters, { ...scope, fileName: file.fileName, body });
    return { documentId: row.id, ...scope, fileName: file.fileName, sourceKey: row.source_object_key };
  });
  return items.map((i) => i.result);
}
