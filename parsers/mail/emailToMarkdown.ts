import PostalMime from 'postal-mime';
import { pageMarker } from '../../chunker/pageMarkers';
import { permanentError } from '../../contracts/sluiceError';
import { csvToMarkdown } from '../csvToMarkdown';
import { htmlToMarkdown } from '../htmlToMarkdown';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from '../markdownBudget';

/** MIME parts nested in parts: real mail nests a handful; postal-mime rejects deeper. */
const MAX_NESTING = 64;

type Address = { name?: string; address?: string; group?: Address[] };

const addresses = (list: Address | Address[] | undefined): string =>
  (Array.isArray(list) ? list : list ? [list] : [])
    .flatMap((a) => (a.group ? a.group : [a]))
    .map((a) => (a.name && a.address ? `${a.name} <${a.address}>` : (a.address ?? a.name ?? '')))
    .filter(Boolean)
    .join(', ');

/** An attachment's text where it is text (plain, markdown, CSV, HTML); null for any other type. */
function attachmentText(mimeType: string, content: ArrayBuffer | Uint8Array | string): string | null {
  if (!mimeType.startsWith('text/')) return null;
  const bytes = typeof content === 'string' ? Buffer.from(content) : Buffer.from(content as ArrayBuffer);
  if (mimeType === 'text/html') return htmlToMarkdown(bytes.toString('utf8'));
  if (mimeType === 'text/csv') return csvToMarkdown(bytes);
  return bytes.toString('utf8').trim();
}

/**
 * One message (RFC 5322, MIME) as markdown, parsed by postal-mime: its subject as the heading,
 * From, To, Cc and Date as lines, its text body (or its HTML body read as an HTML page), then each
 * attachment as a section: its text where it is text, else its name and type.
 */
export async function messageToMarkdown(raw: Buffer, budget: MarkdownBudget = UNLIMITED_MARKDOWN()): Promise<string> {
  let email;
  try {
    email = await PostalMime.parse(raw, { maxNestingDepth: MAX_NESTING, attachmentEncoding: 'arraybuffer' });
  } catch (error) {
    throw permanentError('CORRUPT_DOCUMENT', `not a readable message: ${(error as Error).message.slice(0, 120)}`);
  }
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
    const name = attachment.filename ?? '(unnamed)';
    const text = attachmentText(attachment.mimeType, attachment.content);
    blocks.push(`## Attachment: ${name}`, text ?? `(${attachment.mimeType}, not read)`);
  }
  const markdown = blocks.filter((b) => b !== '').join('\n\n');
  budget.add(markdown);
  return markdown;
}

/**
 * An mbox file: messages separated by lines that start with `From ` (the mboxrd convention, whose
 * `>From ` quoting inside bodies is undone), each read as an EML message and marked as a page, so
 * a chunk says which message it came from. One pass over the lines.
 */
export async function mboxToMarkdown(raw: Buffer, budget: MarkdownBudget = UNLIMITED_MARKDOWN()): Promise<string> {
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
    parts.push(`${pageMarker(i + 1)}\n\n${await messageToMarkdown(Buffer.from(unquoted, 'latin1'), budget)}`);
  }
  return parts.join('\n\n');
}
