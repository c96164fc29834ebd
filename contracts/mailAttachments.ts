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
