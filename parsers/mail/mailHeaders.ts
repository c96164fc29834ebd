import type { Address, Email, Mailbox } from 'postal-mime';
import type { DocumentMetadata } from '../../contracts/documentMetadata';

/** Addresses kept in `mail.to` and `mail.cc` each, and the characters kept of a header value. */
const MAX_ADDRESSES = 12;
const MAX_ADDRESS = 200;
const MAX_VALUE = 256;

function mailboxes(list: Address | Address[] | undefined): Mailbox[] {
  return (Array.isArray(list) ? list : list ? [list] : []).flatMap((a) => (a.group ? a.group : [a]));
}

/** Bare addresses, lower-cased: what a filter's `eq` is written with (`alice@example.org`). */
function bareAddresses(list: Address | Address[] | undefined): string[] {
  const seen = new Set<string>();
  for (const box of mailboxes(list)) {
    const address = box.address.trim().toLowerCase();
    if (address) seen.add(address.slice(0, MAX_ADDRESS));
  }
  return [...seen].slice(0, MAX_ADDRESSES);
}

/** The date as ISO 8601 UTC (what a range filter compares), or null when the header is not a date. */
function isoDate(value: string | undefined): string | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString().replace('.000Z', 'Z');
}

/**
 * A message's headers as document metadata (docs/documents.md, "Mail"): `mail.from` (the sender's
 * bare address), `mail.to` and `mail.cc` (lists of bare addresses), `mail.subject`, `mail.date`
 * (ISO 8601 UTC, so a range filter compares it), `mail.messageId` and `mail.inReplyTo` (as the
 * headers write them, angle brackets included). A header the message lacks is left out; values
 * are cut so the whole stays far inside the metadata bounds (contracts/documentMetadata.ts).
 */
export function mailMetadata(email: Email): DocumentMetadata {
  const meta: DocumentMetadata = {};
  const from = bareAddresses(email.from)[0];
  if (from !== undefined) meta['mail.from'] = from;
  const to = bareAddresses(email.to);
  if (to.length > 0) meta['mail.to'] = to;
  const cc = bareAddresses(email.cc);
  if (cc.length > 0) meta['mail.cc'] = cc;
  const subject = (email.subject ?? '').replace(/\s+/g, ' ').trim();
  if (subject !== '') meta['mail.subject'] = subject.slice(0, MAX_VALUE);
  const date = isoDate(email.date);
  if (date !== null) meta['mail.date'] = date;
  if (email.messageId?.trim()) meta['mail.messageId'] = email.messageId.trim().slice(0, MAX_VALUE);
  if (email.inReplyTo?.trim()) meta['mail.inReplyTo'] = email.inReplyTo.trim().slice(0, MAX_VALUE);
  return meta;
}
