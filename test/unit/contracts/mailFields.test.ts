import { METADATA_MAX_KEYS, metadataProblem, type DocumentMetadata } from '../../../contracts/documentMetadata';
import { withMailFields } from '../../../contracts/mailAttachments';

const mail: DocumentMetadata = {
  'mail.from': 'alice@example.org',
  'mail.to': ['ops@example.org'],
  'mail.cc': ['carol@example.org'],
  'mail.subject': 'Inspection',
  'mail.date': '2026-12-07T10:00:00Z',
  'mail.attachments': ['0b6f8c1e-2a53-4c8e-9a71-5d2f3e4b6a10'],
};

describe('a mail file’s metadata after a parse', () => {
  it('keeps the document’s own keys and replaces the mail keys of an earlier version', () => {
    const before = { team: 'ops', 'mail.from': 'old@example.org', 'mail.inReplyTo': '<gone@example.org>' };
    expect(withMailFields(before, mail)).toEqual({ team: 'ops', ...mail });
  });

  it('leaves out the least needed mail keys where the own keys leave no room, never the attachments', () => {
    const own = Object.fromEntries(Array.from({ length: METADATA_MAX_KEYS - 3 }, (_, i) => [`k${i}`, i]));
    const next = withMailFields(own, mail);
    expect(metadataProblem(next)).toBeNull();
    expect(next).toMatchObject(own);
    expect(Object.keys(next).filter((k) => k.startsWith('mail.'))).toEqual([
      'mail.from',
      'mail.date',
      'mail.attachments',
    ]);
  });
});
