import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { deleteDocument } from '../../client/documentAdmin';
import { replaceDocumentContent } from '../../client/replaceContent';
import { ingestWorkflowId } from '../../contracts/ingest';
import type { DocumentFilter } from '../../contracts/searchFilter';
import { findDocument } from '../../db/repositories/documents';
import { hybridSearch } from '../../search/hybridSearch';
import { objectKeys } from '../../stores/objectKeys';
import type { SearchScope } from '../../stores/ports';
import { emlFixture, type FixtureAttachment } from '../../testkit/fixtures/mailFixture';
import { docxFixture } from '../../testkit/fixtures/officeFixtures';
import { fixturePdf } from '../../testkit/fixtures/pdfFixture';
import { eventually, ingestBuffer, waitForTask, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { storeProfiles } from '../../testkit/harness/profiles';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// An e-mail with attachments on a real worker, on both store profiles: its headers become
// filterable metadata, each attachment of a type sluice reads its own searchable document linked to
// the message, a refused one is recorded with its code while the message succeeds; a new version
// of the message removes the attachments it dropped, and deleting the message deletes the rest.

const PDF: FixtureAttachment = {
  name: 'turbine-report.pdf',
  type: 'application/pdf',
  bytes: fixturePdf([[{ text: 'The turbine blade wear stays within the quarterly tolerance.' }]]),
};
const DOCX: FixtureAttachment = {
  name: 'maintenance-plan.docx',
  type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  bytes: docxFixture([{ heading: 1, text: 'Maintenance plan' }, { text: 'Replace the gearbox seals in May.' }]),
};
const BROKEN: FixtureAttachment = {
  name: 'broken.pdf',
  type: 'application/pdf',
  bytes: fixturePdf([[{ text: 'cut off' }]]).subarray(0, 300),
};
const GZIP: FixtureAttachment = {
  name: 'logs.gz',
  type: 'application/gzip',
  bytes: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3, 4, 5, 6, 7, 8]),
};
const EXTRA: FixtureAttachment = {
  name: 'extra.pdf',
  type: 'application/pdf',
  bytes: fixturePdf([[{ text: 'An extra page past the cap.' }]]),
};

const message = (attachments: FixtureAttachment[], body = 'The quarterly inspection is attached.') =>
  emlFixture({
    from: 'Alice Liddell <alice@example.org>',
    to: 'ops@example.org',
    subject: 'Quarterly turbine inspection',
    date: 'Mon, 07 Dec 2026 10:00:00 +0000',
    messageId: '<inspection-1@example.org>',
    body,
    attachments,
  });

describe.each(storeProfiles())('%s', (_name, overrides) => {
  const scope = { userId: `user-${randomUUID()}`, datasetId: 'mail' };
  let tw: TestWorker;

  beforeAll(async () => {
    // Three attachments a message: the fourth readable one is refused TOO_MANY_ATTACHMENTS.
    tw = await startTestWorker({ config: testConfig({ ...overrides, SLUICE_MAIL_MAX_ATTACHMENTS: '3' }) });
  });
  afterAll(() => tw.shutdown());

  const metadataOf = async (documentId: string) => (await findDocument(tw.adapters.db, documentId))?.metadata ?? {};

  /** Waits for an attachment's run (started by its message's run) to end. */
  async function attachmentOutcome(documentId: string) {
    await eventually(
      () => findDocument(tw.adapters.db, documentId),
      (doc) => doc?.last_task_id !== null && doc?.last_task_id !== undefined,
      120_000,
      200,
    );
    tw.track(documentId);
    return waitTerminal(tw.client, documentId);
  }

  const searchIds = async (query: string, filter: DocumentFilter) => {
    const filtered: SearchScope = { ...scope, filter };
    return new Set((await hybridSearch(tw.adapters, filtered, query, 20)).map((hit) => hit.documentId));
  };

  /** What every store still holds of the document: rows, vectors, keyword entries, objects. */
  async function leftovers(documentId: string) {
    const db = tw.adapters.db;
    const count = async (table: 'documents' | 'chunks') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where(table === 'documents' ? 'id' : 'document_id', '=', documentId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      documents: await count('documents'),
      chunks: await count('chunks'),
      vectors: await tw.adapters.vectors.countForDocument(documentId),
      keywordEntries: await tw.adapters.keywords.countForDocument(documentId),
      objects: await tw.adapters.objects.deletePrefix(objectKeys.documentPrefix(scope.userId, documentId)),
    };
  }
  const NOTHING = { documents: 0, chunks: 0, vectors: { dense: 0, sparse: 0 }, keywordEntries: 0, objects: 0 };

  it('ingests a message and each attachment as linked documents, filters them by sender, and deletes them with it', async () => {
    const { documentId: messageId } = await ingestBuffer(
      tw,
      message([PDF, DOCX, GZIP, BROKEN, EXTRA]),
      'inspection.eml',
      scope,
    );
    expect(await waitTerminal(tw.client, messageId)).toMatchObject({ status: 'SUCCESS' });

    // The headers are metadata; the attachments are listed, the refused ones with their codes.
    const meta = await metadataOf(messageId);
    expect(meta).toMatchObject({
      'mail.from': 'alice@example.org',
      'mail.to': ['ops@example.org'],
      'mail.subject': 'Quarterly turbine inspection',
      'mail.date': '2026-12-07T10:00:00Z',
      'mail.messageId': '<inspection-1@example.org>',
      'mail.refusedAttachments': ['logs.gz: UNSUPPORTED_FILE_TYPE', 'extra.pdf: TOO_MANY_ATTACHMENTS'],
    });
    const attachmentIds = meta['mail.attachments'] as string[];
    expect(attachmentIds).toHaveLength(3);
    const [pdfId, docxId, brokenId] = attachmentIds as [string, string, string];

    // Each attachment is its own document, linked to its message and carrying its headers.
    for (const [id, name] of [
      [pdfId, PDF.name],
      [docxId, DOCX.name],
      [brokenId, BROKEN.name],
    ] as const) {
      expect(await metadataOf(id)).toMatchObject({
        attachedTo: messageId,
        attachmentName: name,
        'mail.from': 'alice@example.org',
        'mail.date': '2026-12-07T10:00:00Z',
      });
    }
    expect(await attachmentOutcome(pdfId)).toMatchObject({ status: 'SUCCESS' });
    expect(await attachmentOutcome(docxId)).toMatchObject({ status: 'SUCCESS' });
    // A corrupt attachment fails its own run with its code; its message succeeded all the same.
    expect(await attachmentOutcome(brokenId)).toMatchObject({ status: 'FAILED', failureCode: 'CORRUPT_DOCUMENT' });

    // A search filtered by the sender finds the message and both attachments by their own words.
    const fromAlice: DocumentFilter = { field: 'meta.mail.from', eq: 'alice@example.org' };
    expect(await searchIds('turbine blade wear tolerance', fromAlice)).toContain(pdfId);
    expect(await searchIds('gearbox seals', fromAlice)).toContain(docxId);
    expect(await searchIds('quarterly inspection attached', fromAlice)).toContain(messageId);
    const attachedOnly: DocumentFilter = { field: 'meta.attachedTo', eq: messageId };
    expect(await searchIds('turbine blade gearbox seals', attachedOnly)).toEqual(new Set([pdfId, docxId]));
    expect((await searchIds('turbine blade wear', { field: 'meta.mail.from', eq: 'bob@example.org' })).size).toBe(0);

    // A new version of the message that keeps only the report: the attachments it dropped are deleted.
    await tw.client.workflow.getHandle(ingestWorkflowId(messageId)).result();
    const replaced = await replaceDocumentContent(
      { db: tw.adapters.db, objects: tw.adapters.objects, client: tw.client, config: tw.config },
      scope,
      messageId,
      { fileName: 'inspection.eml', body: Readable.from([message([PDF], 'Only the report this time.')]) },
    );
    expect(replaced.kind).toBe('started');
    if (replaced.kind !== 'started') return;
    expect(await waitForTask(tw.client, messageId, replaced.taskId)).toMatchObject({ status: 'SUCCESS' });
    expect((await metadataOf(messageId))['mail.attachments']).toEqual([pdfId]);
    for (const dropped of [docxId, brokenId])
      await eventually(
        () => findDocument(tw.adapters.db, dropped),
        (doc) => doc === undefined,
        120_000,
        200,
      );
    expect(await leftovers(docxId)).toEqual(NOTHING);
    expect((await findDocument(tw.adapters.db, pdfId))?.metadata).toMatchObject({ attachedTo: messageId });

    // Deleting the message deletes its attachment from every store too.
    await tw.client.workflow.getHandle(ingestWorkflowId(messageId)).result();
    expect(await deleteDocument(tw, { documentId: messageId, ...scope })).toMatchObject({ existed: true });
    expect(await leftovers(messageId)).toEqual(NOTHING);
    expect(await leftovers(pdfId)).toEqual(NOTHING);
    expect(await leftovers(brokenId)).toEqual(NOTHING);
    expect((await searchIds('turbine blade wear tolerance', fromAlice)).size).toBe(0);
  });
});
