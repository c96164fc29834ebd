import { Context } from '@temporalio/activity';
import { existingDocumentIds } from '../../db/repositories/documents';
import { objectKeys } from '../../stores/objectKeys';
import type { ActivityDeps } from '../deps';
import { mappingFailures } from '../toApplicationFailure';

export interface SweepOrphansInput {
  /** Only what is older than this is touched: an upload writes its object before its row. */
  graceMs: number;
}

export interface SweepOrphansResult {
  /** Documents whose objects were deleted because no documents row refers to them. */
  orphanedDocuments: number;
  partialWritesAborted: number;
}

/**
 * Removes what a crash or a failed insert left in the object store: the objects of documents that
 * have no row (an upload that died between its object and its row), and writes under sluice's
 * own prefix that never finished (local temp files, S3 multipart uploads). Each step is idempotent; a sweep cut short is
 * finished by the next one.
 */
export function createSweepOrphanedObjectsActivity(deps: ActivityDeps) {
  return mappingFailures(async function sweepOrphanedObjects(input: SweepOrphansInput): Promise<SweepOrphansResult> {
    const before = new Date(Date.now() - input.graceMs);
    const result: SweepOrphansResult = { orphanedDocuments: 0, partialWritesAborted: 0 };
    for await (const keys of deps.objects.listOlderThan(objectKeys.allDocuments, before)) {
      const documents = new Map<string, string>();
      for (const key of keys) {
        const owner = objectKeys.documentOf(key);
        if (owner) documents.set(owner.documentId, owner.prefix);
      }
      const known = await existingDocumentIds(deps.db, [...documents.keys()]);
      for (const [documentId, prefix] of documents) {
        if (known.has(documentId)) continue;
        await deps.objects.deletePrefix(prefix);
        result.orphanedDocuments += 1;
      }
      Context.current().heartbeat(result);
    }
    // Only sluice's own writes: other writers' uploads in a shared bucket are not ours to abort.
    for await (const writes of deps.objects.listPartialWrites(objectKeys.allDocuments, before)) {
      for (const write of writes) await deps.objects.abortPartialWrite(write);
      result.partialWritesAborted += writes.length;
      Context.current().heartbeat(result);
    }
    return result;
  });
}
