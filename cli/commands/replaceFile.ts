import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { Adapters } from '../../composition/adapters';
import type { SluiceConfig } from '../../config/config';
import { replaceDocumentContent } from '../../client/replaceContent';
import { countChunks } from '../../db/repositories/chunks';
import { waitForDocuments } from '../waitForDocuments';

/**
 * `sluice ingest --replace <documentId> <file>`: the document's content replaced in place
 * (client/replaceContent.ts), followed to its end; prints what was embedded and what was reused.
 * Returns false when the replacement was refused or its run failed.
 */
export async function replaceFile(
  cfg: Readonly<SluiceConfig>,
  adapters: Adapters,
  client: Client,
  scope: { userId: string; datasetId: string },
  documentId: string,
  file: string,
): Promise<boolean> {
  const outcome = await replaceDocumentContent(
    { db: adapters.db, objects: adapters.objects, client, config: cfg },
    scope,
    documentId,
    { fileName: path.basename(file), body: createReadStream(file) },
  );
  if (outcome.kind === 'not-found') {
    console.error(`no document ${documentId} in dataset ${scope.datasetId}`);
    return false;
  }
  if (outcome.kind === 'busy' || outcome.kind === 'refused') {
    console.error(outcome.kind === 'busy' ? outcome.reason : `${outcome.refusal.code}: ${outcome.refusal.message}`);
    return false;
  }
  if (outcome.kind === 'unchanged') {
    console.log(`${documentId}: unchanged (the same content is served by task ${outcome.taskId})`);
    return true;
  }
  console.log(`replacing ${documentId}: task ${outcome.taskId} takes over ${outcome.replaceOfTaskId}`);
  const done = await waitForDocuments(client, [{ documentId, label: path.basename(file) }]);
  const counts = await countChunks(adapters.db, documentId);
  console.log(
    `${counts.active} chunks served: ${counts.reused} vectors reused, ${counts.active - counts.reused} embedded`,
  );
  return [...done.values()].every((p) => p.status === 'SUCCESS');
}
