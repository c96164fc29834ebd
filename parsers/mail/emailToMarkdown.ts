import PostalMime, { type Attachment } from 'postal-mime';
import { pageMarker } from '../../chunker/pageMarkers';
import type { DocumentMetadata } from '../../contracts/documentMetadata';
import { permanentError } from '../../contracts/sluiceError';
import { csvToMarkdown } from '../csvToMarkdown';
import { htmlToMarkdown } from '../htmlToMarkdown';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from '../markdownBudget';
import { attachmentName, type AttachmentWriter } from './mailAttachments';
import { mailMetadata } from './mailHeaders';

/** MIME parts nested in parts: real mail nests a handful; postal-mime rejects deeper. */
const MAX_NESTING = 64;

type Address = { name?: string; address?: string; group?: Address[] };

const addresses = (list: Address | Address[] | undefined): string =>
  (Array.isArray(list) ? list : list ? [list] : [])
    .flatMap((a) => (a.group ? a.group : [a]))
    .map((a) => (a.name && a.address ? `${a.name} <${a.address}>` : (a.address ?? a.name ?? '')))
    .filter(Boolean)
    .join(', ');

/** A mail file read: its markdown, and (for one message) its headers as metadata. */
export interface ParsedMail {
  markdown: string;
  /** The message's mail.* fields (parsers/mail/mailHeaders.ts); null for an MBOX, whose messages differ. */
  mail: DocumentMetadata | null;
}

/** An attachment's text where it is text (plain, markdown, CSV, HTML); null for any other type. */
function attachmentText(mimeType: string, content: ArrayBuffer | Uint8Array | string): string | null {
  if (!mimeType.startsWith('text/')) return null;
  const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content as ArrayBuffer);
  if (mimeType === 'text/html') return htmlToMarkdown(bytes.toString('utf8'));
  if (mimeType === 'text/csv') return csvToMarkdown(bytes);
  return bytes.toString('utf8').trim();
}

/**
 * What the message's markdown says of an attachment: a text attachment's text (it reads as part of
 * the conversation); any other, with a writer, the document it becomes or why it becomes none;
 * without one (a parse that has nowhere to put attachments), its type.
 */
async function attachmentBlock(
  attachment: Attachment,
  messageIndex: number,
  mail: DocumentMetadata,
  writer: AttachmentWriter | undefined,
): Promise<string> {
  const text = attachmentText(attachment.mimeType, attachment.content);
  if (text !== null) return text;
  if (writer) return writer.take(attachment, messageIndex, mail);
  return `(${attachment.mimeType}, not read)`;
}

/**
 * One message (RFC 5322, MIME) as markdown, parsed by postal-mime: its subject as the heading,
 * From, To, Cc and Date as lines, its text body (or its HTML body read as an HTML page), then each
 * attachment (not the pictures its HTML shows) as a section (attachmentBlock). `messageIndex` is
 * its place in an MBOX (0 for an EML), which its attachments' document ids are derived from.
 */
export async function messageToMarkdown(
  raw: Buffer,
  budget: MarkdownBudget = UNLIMITED_MARKDOWN(),
  writer?: AttachmentWriter,
  messageIndex = 0,
): Promise<ParsedMail> {
  let email;
  try {
    email = await PostalMime.parse(raw, { maxNestingDepth: MAX_NESTING, attachmentEncoding: 'arraybuffer' });
  } catch (error) {
    throw permanentError('CORRUPT_DOCUMENT', `not a readable message: ${(error as Error).message.slice(0, 120)}`);
  }
  const mail = mailMetadata(email);
  const header = [
    ['From', addresses(email.from as Address | undefined)],
    ['To', addresses(email.to as Address[] | undefined)],
    ['Cc', addresses(email.cc as Address[] | undefined)],
    ['Date', email.date ?? ''],
  ]
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  const body = email.text?.trim() || (email.html ? htmlToMarkdown(email.html) : '');
  const blocks = [`# ${(email.subject ?? '').replace(/\s+/g, ' ').trim() || '(no subject)'}`, header, body];
  for (const attachment of email.attachments) {
    if (attachment.related) continue;
    blocks.push(
      `## Attachment: ${attachmentName(attachment)}`,
      await attachmentBlock(attachment, messageIndex, mail, writer),
    );
  }
  const markdown = blocks.filter((b) => b !== '').join('\n\n');
  budget.add(markdown);
  return { markdown, mail };
}

/**
 * An mbox file: messages separated by lines that start with `From ` (the mboxrd convention, whose
 * `>From ` quoting inside bodies is undone), each read as an EML message and marked as a page, so
 * a chunk says which message it came from. One pass over the lines. No headers as metadata: the
 * file is one document whose messages have different senders and dates (each attachment carries
 * its own message's).
 */
export async function mboxToMarkdown(
  raw: Buffer,
  budget: MarkdownBudget = UNLIMITED_MARKDOWN(),
  writer?: AttachmentWriter,
): Promise<ParsedMail> {
  const text = raw.toString('latin1');
  const messages: string[] = [];
  let start = -1;
  for (let pos = 0; pos < text.length;) {
    const newline = text.indexOf('\n', pos);
    const end = newline < 0 ? text.length : newline;
    // A line that starts with `From ` begins a message: inside bodies such lines are quoted (`>From `).
    if (text.startsWith('From ', pos)) {
      if (start >= 0) messages.push(text.slice(start, pos));
      start = end + 1;
    }
    pos = end + 1;
  }
  if (start >= 0 && start < text.length) messages.push(text.slice(start));
  if (messages.length === 0)
    throw permanentError('CORRUPT_DOCUMENT', 'no message in the mbox (no line starts with "From ")');
  const parts: string[] = [];
  for (const [i, message] of messages.entries()) {
    const unquoted = message.replace(/^>(>*From )/gm, '$1');
    const { markdown } = await messageToMarkdown(Buffer.from(unquoted, 'latin1'), budget, writer, i + 1);
    parts.push(`${pageMarker(i + 1)}\n\n${markdown}`);
  }
  return { markdown: parts.join('\n\n'), mail: null };
}
