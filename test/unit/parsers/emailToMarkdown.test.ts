import { stripPageMarkers } from '../../../chunker/chunkPages';
import { detectFileType } from '../../../parsers/detectFileType';
import { mboxToMarkdown, messageToMarkdown } from '../../../parsers/mail/emailToMarkdown';

const CSV = Buffer.from('name,qty\nbolt,12\n').toString('base64');

const MESSAGE = [
  'Return-Path: <alice@example.org>',
  'From: Alice Liddell <alice@example.org>',
  'To: ops@example.org, Bob <bob@example.org>',
  'Subject: =?UTF-8?Q?Disk_quota_r=C3=A9sum=C3=A9?=',
  'Date: Mon, 07 Dec 2026 10:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'The quota of /srv is at 91 %. Caf=C3=A9 closes at five.',
  '--b1',
  'Content-Type: text/csv; name="stock.csv"',
  'Content-Disposition: attachment; filename="stock.csv"',
  'Content-Transfer-Encoding: base64',
  '',
  CSV,
  '--b1',
  'Content-Type: image/png; name="chart.png"',
  'Content-Disposition: attachment; filename="chart.png"',
  'Content-Transfer-Encoding: base64',
  '',
  'iVBORw0KGgo=',
  '--b1--',
  '',
].join('\r\n');

describe('EML and MBOX', () => {
  it('reads a message: subject, senders and date, its body, and each attachment (text read, others named)', async () => {
    expect(detectFileType(Buffer.from(MESSAGE), 'upload.bin')).toBe('eml');
    expect((await messageToMarkdown(Buffer.from(MESSAGE))).markdown).toBe(
      [
        '# Disk quota résumé',
        'From: Alice Liddell <alice@example.org>\nTo: ops@example.org, Bob <bob@example.org>\nDate: 2026-12-07T10:00:00.000Z',
        'The quota of /srv is at 91 %. Café closes at five.',
        '## Attachment: stock.csv',
        '| name | qty |\n| --- | --- |\n| bolt | 12 |',
        '## Attachment: chart.png',
        '(image/png, not read)',
      ].join('\n\n'),
    );
  });

  it('splits a mailbox at its From lines, unquotes >From in bodies, and marks each message as a page', async () => {
    const simple = (subject: string, body: string) =>
      `From: a@example.org\nSubject: ${subject}\nDate: Tue, 08 Dec 2026 09:00:00 +0000\n\n${body}\n`;
    const mbox = [
      'From a@example.org Tue Dec  8 09:00:00 2026',
      simple('First', 'Hello.\n>From the start, it worked.'),
      'From b@example.org Tue Dec  8 10:00:00 2026',
      simple('Second', 'Bye.'),
    ].join('\n');
    expect(detectFileType(Buffer.from(mbox), 'archive')).toBe('mbox');
    const marked = (await mboxToMarkdown(Buffer.from(mbox))).markdown;
    expect(stripPageMarkers(marked).starts.map((s) => s.page)).toEqual([1, 2]);
    const text = stripPageMarkers(marked).text;
    expect(text).toContain('# First');
    expect(text).toContain('From the start, it worked.');
    expect(text).not.toContain('>From');
    expect(text.indexOf('# Second')).toBeGreaterThan(text.indexOf('# First'));
    await expect(mboxToMarkdown(Buffer.from('no separator here\n'))).rejects.toMatchObject({
      code: 'CORRUPT_DOCUMENT',
    });
  });

  it('leaves prose that merely starts with a word and a colon as text', () => {
    expect(detectFileType(Buffer.from('Note: bring the keys.\nAlso: lock the door.\n'), 'todo')).toBe('txt');
  });
});
