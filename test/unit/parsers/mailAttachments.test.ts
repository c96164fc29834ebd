import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from '../../../parsers/convertFile';
import { attachmentDocumentId } from '../../../parsers/mail/attachmentDocumentId';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { docxFixture } from '../../../testkit/fixtures/officeFixtures';
import { emlFixture } from '../../../testkit/fixtures/mailFixture';
import { fixturePdf } from '../../../testkit/fixtures/pdfFixture';
import { UUID } from '../../../contracts/uuid';
import { documentMetadataSchema } from '../../../contracts/documentMetadata';
import { ISO_DATE } from '../../../contracts/searchFilter';

const MESSAGE_DOC = '0b6f8c1e-2a53-4c8e-9a71-5d2f3e4b6a10';
const PDF = fixturePdf([[{ text: 'Quarterly turbine report: blade wear is within limits.' }]]);
const DOCX = docxFixture([{ heading: 1, text: 'Maintenance plan' }, { text: 'Replace the gearbox seals in May.' }]);
const ZIP_LIKE = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3, 4, 5, 6, 7, 8]);

const message = (
  attachments = [
    { name: 'report.pdf', type: 'application/pdf', bytes: PDF },
    { name: 'plan.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', bytes: DOCX },
    { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('Bring the torque wrench.') },
    { name: 'archive.gz', type: 'application/gzip', bytes: ZIP_LIKE },
  ],
) =>
  emlFixture({
    from: 'Alice Liddell <Alice@Example.org>',
    to: 'ops@example.org, Bob <bob@example.org>',
    cc: 'Team: carol@example.org, dave@example.org;',
    subject: 'Turbine   maintenance',
    date: 'Mon, 07 Dec 2026 11:30:00 +0100',
    messageId: '<m1@example.org>',
    inReplyTo: '<m0@example.org>',
    body: 'See the attached report and plan.',
    attachments,
  });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sluice-mail-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function parse(bytes: Buffer, type: 'eml' | 'mbox', maxMailAttachments = 20) {
  const file = path.join(dir, 'source');
  await writeFile(file, bytes);
  return parseDocument(
    file,
    type,
    { ...DEFAULT_PARSE_LIMITS, maxMailAttachments },
    { attachments: { dir: path.join(dir, 'attachments'), documentId: MESSAGE_DOC } },
  );
}

describe('mail headers as metadata', () => {
  it('reads sender, recipients (groups unfolded), subject, date in UTC and the message ids', async () => {
    const parsed = await parse(message([]), 'eml');
    expect(parsed.mail).toEqual({
      'mail.from': 'alice@example.org',
      'mail.to': ['ops@example.org', 'bob@example.org'],
      'mail.cc': ['carol@example.org', 'dave@example.org'],
      'mail.subject': 'Turbine maintenance',
      'mail.date': '2026-12-07T10:30:00Z',
      'mail.messageId': '<m1@example.org>',
      'mail.inReplyTo': '<m0@example.org>',
    });
    expect(documentMetadataSchema.safeParse(parsed.mail).success).toBe(true);
    expect(parsed.mail?.['mail.date']).toMatch(ISO_DATE);
  });

  it('leaves out what the message lacks, and an unreadable date', async () => {
    const raw = Buffer.from('From: a@example.org\r\nDate: someday\r\nSubject: x\r\n\r\nHello there.\r\n');
    expect((await parse(raw, 'eml')).mail).toEqual({ 'mail.from': 'a@example.org', 'mail.subject': 'x' });
  });
});

describe('attachments as documents', () => {
  it('writes out each attachment of a type sluice reads, keeps text inline, refuses the rest with its code', async () => {
    const parsed = await parse(message(), 'eml');
    expect(parsed.attachments.map((a) => a.fileName)).toEqual(['report.pdf', 'plan.docx']);
    expect(await readFile(parsed.attachments[0]!.file)).toEqual(PDF);
    expect(await readFile(parsed.attachments[1]!.file)).toEqual(DOCX);
    for (const a of parsed.attachments) {
      expect(a.documentId).toMatch(UUID);
      expect(a.mail['mail.from']).toBe('alice@example.org');
    }
    expect(parsed.attachmentRefusals).toEqual([{ fileName: 'archive.gz', code: 'UNSUPPORTED_FILE_TYPE' }]);
    // The message names each attachment and its document instead of inlining it; text stays inline.
    const [pdf, docx] = parsed.attachments;
    expect(parsed.markdown).toContain(`## Attachment: report.pdf\n\nIngested as document ${pdf!.documentId}.`);
    expect(parsed.markdown).toContain(`## Attachment: plan.docx\n\nIngested as document ${docx!.documentId}.`);
    expect(parsed.markdown).toContain('## Attachment: notes.txt\n\nBring the torque wrench.');
    expect(parsed.markdown).toContain('(application/gzip, not ingested: UNSUPPORTED_FILE_TYPE)');
    expect(parsed.markdown).not.toContain('blade wear');
  });

  it('derives the same document id from the same message and bytes, another from other bytes', async () => {
    const first = await parse(message(), 'eml');
    const again = await parse(message(), 'eml');
    expect(again.attachments.map((a) => a.documentId)).toEqual(first.attachments.map((a) => a.documentId));
    expect(new Set(first.attachments.map((a) => a.documentId)).size).toBe(2);
    expect(attachmentDocumentId('other-message', 0, 'x')).not.toBe(attachmentDocumentId(MESSAGE_DOC, 0, 'x'));
    expect(attachmentDocumentId(MESSAGE_DOC, 1, 'x')).not.toBe(attachmentDocumentId(MESSAGE_DOC, 0, 'x'));
  });

  it('caps the attachments one file turns into documents: 500 tiny PDFs make 3', async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      name: `p${i}.pdf`,
      type: 'application/pdf',
      bytes: fixturePdf([[{ text: `page ${i}` }]]),
    }));
    const parsed = await parse(message(many), 'eml', 3);
    expect(parsed.attachments).toHaveLength(3);
    expect(parsed.attachmentRefusals).toHaveLength(497);
    expect(new Set(parsed.attachmentRefusals.map((r) => r.code))).toEqual(new Set(['TOO_MANY_ATTACHMENTS']));
  });

  it('names binary attachments only, without a folder to write them to', async () => {
    const file = path.join(dir, 'plain');
    await writeFile(file, message());
    const parsed = await parseDocument(file, 'eml', DEFAULT_PARSE_LIMITS);
    expect(parsed.attachments).toEqual([]);
    expect(parsed.markdown).toContain('(application/pdf, not read)');
  });

  it('an MBOX has no headers as metadata; each attachment carries its own message’s', async () => {
    const one = (from: string, subject: string, name: string, text: string) =>
      emlFixture({
        from,
        to: 'ops@example.org',
        subject,
        date: 'Tue, 08 Dec 2026 09:00:00 +0000',
        body: 'Attached.',
        attachments: [{ name, type: 'application/pdf', bytes: fixturePdf([[{ text }]]) }],
      }).toString('latin1');
    const mbox = Buffer.from(
      `From a@example.org Tue Dec  8 09:00:00 2026\n${one('a@example.org', 'First', 'a.pdf', 'alpha')}\n` +
        `From b@example.org Tue Dec  8 10:00:00 2026\n${one('b@example.org', 'Second', 'b.pdf', 'beta')}`,
      'latin1',
    );
    const parsed = await parse(mbox, 'mbox');
    expect(parsed.mail).toBeNull();
    expect(parsed.attachments.map((a) => [a.fileName, a.mail['mail.from'], a.mail['mail.subject']])).toEqual([
      ['a.pdf', 'a@example.org', 'First'],
      ['b.pdf', 'b@example.org', 'Second'],
    ]);
  });
});
