import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Attachment } from 'postal-mime';
import type { DocumentMetadata } from '../../contracts/documentMetadata';
import type { FailureCode } from '../../contracts/failureCodes';
import { SluiceError } from '../../contracts/sluiceError';
import { DETECTION_HEAD_BYTES, detectFileType } from '../detectFileType';
import { attachmentDocumentId } from './attachmentDocumentId';

/** An attachment the parse wrote out, to become its own document linked to its message. */
export interface MailAttachment {
  /** The document it becomes (attachmentDocumentId). */
  documentId: string;
  fileName: string;
  /** Its bytes, in the folder CLEANING named; CLEANING stores them and removes the folder. */
  file: string;
  /** Its message's headers as metadata (parsers/mail/mailHeaders.ts), copied to its document. */
  mail: DocumentMetadata;
}

/** An attachment that does not become a document, and why (its type, or the cap on attachments). */
export interface AttachmentRefusal {
  fileName: string;
  code: FailureCode;
}

/** Where a parse writes a message's attachments (a folder of its own), and the message's document id. */
export interface AttachmentTarget {
  dir: string;
  documentId: string;
}

/**
 * Writes a message's attachments out, one file at a time as each message is read, so that they
 * leave the parse process through the disk rather than its answer, and CLEANING streams each to
 * the object store. Only a type sluice reads (detectFileType on the bytes) is written; the others,
 * and those past the cap, are refused. Shared by every message of an MBOX: the cap is the file's.
 */
export class AttachmentWriter {
  readonly written: MailAttachment[] = [];
  readonly refused: AttachmentRefusal[] = [];

  /** `max`: the most attachments one EML or MBOX file turns into documents (SLUICE_MAIL_MAX_ATTACHMENTS). */
  constructor(
    private readonly target: AttachmentTarget,
    private readonly max: number,
  ) {}

  /** The markdown the message keeps for the attachment: its name and its document, or why it has none. */
  async take(attachment: Attachment, messageIndex: number, mail: DocumentMetadata): Promise<string> {
    const fileName = attachmentName(attachment);
    const bytes = bytesOf(attachment.content);
    const code = this.refusalOf(bytes, fileName);
    if (code !== null) {
      this.refused.push({ fileName, code });
      return `(${attachment.mimeType}, not ingested: ${code})`;
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const documentId = attachmentDocumentId(this.target.documentId, messageIndex, sha256);
    if (this.written.some((w) => w.documentId === documentId)) return `Ingested as document ${documentId}.`;
    await mkdir(this.target.dir, { recursive: true });
    const file = path.join(this.target.dir, String(this.written.length));
    await writeFile(file, bytes);
    this.written.push({ documentId, fileName, file, mail });
    return `Ingested as document ${documentId}.`;
  }

  private refusalOf(bytes: Buffer, fileName: string): FailureCode | null {
    try {
      detectFileType(bytes.subarray(0, DETECTION_HEAD_BYTES), fileName);
    } catch (error) {
      if (error instanceof SluiceError && error.permanent) return error.code;
      throw error;
    }
    return this.written.length >= this.max ? 'TOO_MANY_ATTACHMENTS' : null;
  }
}

function bytesOf(content: ArrayBuffer | Uint8Array | string): Buffer {
  if (typeof content === 'string') return Buffer.from(content);
  return content instanceof Uint8Array
    ? Buffer.from(content.buffer, content.byteOffset, content.byteLength)
    : Buffer.from(content);
}

/** The name a message gives an attachment, or `(unnamed)`. */
export function attachmentName(attachment: Attachment): string {
  return attachment.filename?.trim() || '(unnamed)';
}
