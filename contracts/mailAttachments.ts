import { metadataProblem, type DocumentMetadata } from './documentMetadata';

/**
 * How an e-mail's attachments are linked to their message (docs/documents.md, "Mail"): each
 * attachment's document has `attachedTo` (the message's document id) and `attachmentName`, beside
 * its message's `mail.*` fields; the message's document lists the attachments it has now in
 * `mail.attachments` and those refused in `mail.refusedAttachments` (`<name>: <failure code>`).
 */
export const ATTACHED_TO = 'attachedTo';
export const ATTACHMENT_NAME = 'attachmentName';
export const MAIL_ATTACHMENTS = 'mail.attachments';
export const MAIL_REFUSED_ATTACHMENTS = 'mail.refusedAttachments';

/** The file types whose attachments become documents. */
export function isMailType(type: string | null): boolean {
  return type === 'eml' || type === 'mbox';
}

/** The prefix of every field a mail file's parse writes on its document. */
export const MAIL_PREFIX = 'mail.';

/** After a message's CLEANING: the attachments whose runs are to start, and those its new version no longer has. */
export interface AttachmentRuns {
  start: string[];
  stale: string[];
}

/** The mail fields left out first when the document's own metadata leaves no room for all of them. */
const LEFT_OUT_FIRST = ['mail.cc', 'mail.to', 'mail.refusedAttachments', 'mail.inReplyTo', 'mail.subject'];

/**
 * A mail file's metadata after a parse: its own keys as they are, the `mail.*` keys of an earlier
 * version replaced by `fields`. Where the own keys leave no room within the metadata bounds, the
 * least needed mail fields are left out; `mail.attachments` stays, because it is what keeps the
 * message's attachments when a new version comes.
 */
export function withMailFields(current: DocumentMetadata, fields: DocumentMetadata): DocumentMetadata {
  const own = Object.fromEntries(Object.entries(current).filter(([key]) => !key.startsWith(MAIL_PREFIX)));
  const next: DocumentMetadata = { ...own, ...fields };
  for (const key of [...LEFT_OUT_FIRST, ...Object.keys(fields)]) {
    if (metadataProblem(next) === null) return next;
    if (key !== MAIL_ATTACHMENTS) delete next[key];
  }
  return next;
}
