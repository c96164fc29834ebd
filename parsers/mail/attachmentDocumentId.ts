import { createHash } from 'node:crypto';

/**
 * The document id an attachment becomes: derived from its message's document, the message's place
 * in the file (0 for an EML; an MBOX message's number) and the SHA-256 of its bytes, so a retried
 * CLEANING or a replayed run names the same document again, and a new version of the message that
 * keeps the attachment keeps its document. Shaped as a lower-case UUID (version 8: made by hashing).
 */
export function attachmentDocumentId(messageDocumentId: string, messageIndex: number, sha256: string): string {
  const h = createHash('sha256').update(`attachment\n${messageDocumentId}\n${messageIndex}\n${sha256}`).digest('hex');
  const variant = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
