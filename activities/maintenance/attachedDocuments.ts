import type { DocumentOwner } from '../../contracts/deletion';
import type { StageInput } from '../../contracts/ingest';
import type { AttachmentRuns } from '../../contracts/mailAttachments';
import { attachedDocuments, listedAttachments } from '../../db/repositories/mailAttachments';
import type { ActivityDeps } from '../deps';
import { mappingFailures } from '../toApplicationFailure';

/** A message's attachments are bounded by SLUICE_MAIL_MAX_ATTACHMENTS (at most 64) per version. */
const PAGE = 100;

/** The reads that keep a message's attachments with it (docs/documents.md, "Mail"). */
export function createAttachedDocumentsActivities(deps: Pick<ActivityDeps, 'db'>) {
  return {
    /**
     * After a message's CLEANING: the attachments it lists whose runs never started (their
     * document has no task yet), and the attachments of an earlier version it no longer lists,
     * to be deleted. Read only: a replayed or retried run asks again and starts nothing twice.
     */
    attachmentRuns: mappingFailures(async (input: StageInput): Promise<AttachmentRuns> => {
      const listed = new Set(await listedAttachments(deps.db, input.documentId));
      const attached = await attachedDocuments(deps.db, input, input.documentId, PAGE);
      const active = attached.filter((a) => a.lifecycle === 'ACTIVE');
      return {
        start: active.filter((a) => listed.has(a.id) && a.lastTaskId === null).map((a) => a.id),
        stale: active.filter((a) => !listed.has(a.id)).map((a) => a.id),
      };
    }),

    /** A page of the documents attached to a message being deleted (deleted with it, then asked again). */
    attachedDocuments: mappingFailures(async (owner: DocumentOwner): Promise<string[]> => {
      const attached = await attachedDocuments(deps.db, owner, owner.documentId, PAGE);
      return attached.map((a) => a.id);
    }),
  };
}
