import { createReadStream } from 'node:fs';
import type { StageInput } from '../../contracts/ingest';
import type { DocumentMetadata } from '../../contracts/documentMetadata';
import type { FailureCode } from '../../contracts/failureCodes';
import {
  ATTACHED_TO,
  ATTACHMENT_NAME,
  MAIL_ATTACHMENTS,
  MAIL_REFUSED_ATTACHMENTS,
} from '../../contracts/mailAttachments';
import { SluiceError } from '../../contracts/sluiceError';
import { usageOf } from '../../db/repositories/documentCatalog';
import { findDocument } from '../../db/repositories/documents';
import { setMailFields } from '../../db/repositories/mailAttachments';
import type { AttachmentRefusal, MailAttachment } from '../../parsers/mail/mailAttachments';
import { cleanFileName } from '../../registration/fileName';
import { budgetOrRefusal, registerUpload } from '../../registration/registerUpload';
import type { ActivityDeps } from '../deps';

/** Refusals listed on the message: enough to say what happened, bounded like every metadata list. */
const MAX_REFUSALS_LISTED = 16;

/** What a mail file's parse found beside its markdown (parsers/convertFile.ts ParsedDocument). */
export interface ParsedMailParts {
  mail: DocumentMetadata | null;
  attachments: MailAttachment[];
  attachmentRefusals: AttachmentRefusal[];
}

/**
 * CLEANING of an EML or MBOX file, after its parse: each attachment the parse wrote out is
 * registered as a document of the message's dataset, as an upload is (size limit, the user's
 * quota), linked to its message (contracts/mailAttachments.ts); then the message's `mail.*` fields
 * are set: its headers, the attachments it has, and those refused with their codes. An attachment
 * already registered (a retried CLEANING, a new version that kept it: its id is derived from the
 * message and its bytes) is not stored again. A refusal never fails the message.
 */
export async function registerMailAttachments(
  deps: ActivityDeps,
  input: StageInput,
  parsed: ParsedMailParts,
): Promise<void> {
  const limits = { maxFileBytes: deps.settings.maxFileBytes, quota: deps.settings.quota };
  const attached: string[] = [];
  const refused = [...parsed.attachmentRefusals];
  for (const attachment of parsed.attachments) {
    const code = await registerAttachment(deps, input, attachment, limits);
    if (code === null) attached.push(attachment.documentId);
    else refused.push({ fileName: attachment.fileName, code });
  }
  const fields: DocumentMetadata = { ...(parsed.mail ?? {}), [MAIL_ATTACHMENTS]: attached };
  if (refused.length > 0)
    fields[MAIL_REFUSED_ATTACHMENTS] = refused
      .slice(0, MAX_REFUSALS_LISTED)
      .map((r) => `${cleanFileName(r.fileName).slice(0, 200)}: ${r.code}`);
  await setMailFields(deps.db, input.documentId, fields);
}

/** Registers one attachment; its refusal's failure code, or null when it is (or already was) registered. */
async function registerAttachment(
  deps: ActivityDeps,
  input: StageInput,
  attachment: MailAttachment,
  limits: Parameters<typeof budgetOrRefusal>[0],
): Promise<FailureCode | null> {
  const existing = await findDocument(deps.db, attachment.documentId);
  if (existing && existing.user_id === input.userId && existing.dataset_id === input.datasetId)
    // One an earlier version dropped and whose deletion is under way is not taken back.
    return existing.lifecycle === 'ACTIVE' ? null : 'DOCUMENT_DELETING';
  const budget = budgetOrRefusal(limits, await usageOf(deps.db, input.userId));
  if ('code' in budget) return budget.code;
  const fileName = cleanFileName(attachment.fileName);
  try {
    const registered = await registerUpload(
      { db: deps.db, objects: deps.objects, limits },
      {
        documentId: attachment.documentId,
        userId: input.userId,
        datasetId: input.datasetId,
        fileName,
        body: createReadStream(attachment.file),
        metadata: { ...attachment.mail, [ATTACHED_TO]: input.documentId, [ATTACHMENT_NAME]: fileName },
        attachment: true,
      },
      budget,
    );
    return registered.kind === 'refused' ? registered.refusal.code : null;
  } catch (error) {
    // A permanent refusal of this one attachment (its id taken elsewhere) is recorded, not the message's failure.
    if (error instanceof SluiceError && error.permanent) return error.code;
    throw error;
  }
}
