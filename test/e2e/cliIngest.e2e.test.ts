import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { chunkingChoiceOf } from '../../cli/chunkingChoiceOptions';
import { formatIngested, ingestFiles } from '../../cli/commands/ingestFiles';
import { latestPlanOfDocument } from '../../db/repositories/chunkingPlans';
import { ingestWorkflowId } from '../../contracts/ingest';
import { registerFile, SourceReadError } from '../../registration/registerFile';
import { uploadLimitsOf } from '../../registration/registerUpload';
import { findDocument, listDocuments } from '../../db/repositories/documents';
import { objectKeys } from '../../stores/objectKeys';
import { refusingInserts } from '../../testkit/fakes/refuseInserts';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// The `sluice ingest` path (cli/commands/ingestFiles.ts, as cli/main.ts calls it) with files
// that cannot be read: each is reported with its reason, nothing crashes, the others ingest.
let tw: TestWorker;
let dir: string;
const scope = { userId: `cli-${randomUUID()}`, datasetId: 'cli' };

beforeAll(async () => {
  tw = await startTestWorker();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sluice-cli-'));
});
afterAll(async () => {
  await tw.shutdown();
  await fs.rm(dir, { recursive: true, force: true });
});

it('reports a missing file and an unreadable one (a directory) as FAILED with the reason, and ingests the others', async () => {
  const missing = path.join(dir, 'missing.md');
  const good = path.join(dir, 'good.md');
  const directory = path.join(dir, 'folder.md');
  await fs.writeFile(good, `# Good\n\nThe file that is there ${randomUUID()}.\n`);
  await fs.mkdir(directory);

  const results = await ingestFiles(tw.config, tw.adapters, tw.client, [missing, good, directory], scope);
  for (const r of results) if (r.documentId) tw.track(r.documentId);

  expect(results.map((r) => [r.file, r.status])).toEqual([
    [missing, 'FAILED'],
    [good, 'SUCCESS'],
    [directory, 'FAILED'],
  ]);
  expect(results[0]).toMatchObject({
    documentId: null,
    error: expect.stringMatching(/^could not read missing\.md: ENOENT/),
  });
  // A directory opens fine and fails on the first read: the mid-stream path.
  expect(results[2]).toMatchObject({
    documentId: null,
    error: expect.stringMatching(/^could not read folder\.md: EISDIR/),
  });
  expect(formatIngested(results[0]!)).toMatch(/^FAILED +- +\S+missing\.md +could not read missing\.md: ENOENT/);
  const stored = await listDocuments(tw.adapters.db, scope);
  expect(stored.map((d) => d.file_name)).toEqual(['good.md']);
});

it('rejects a body that fails mid-way with a SourceReadError, leaving no object and no row', async () => {
  const documentId = randomUUID();
  async function* body() {
    for (let i = 0; i < 4; i++) yield Buffer.alloc(64 * 1024, 'x');
    throw new Error('device error at byte 262144');
  }
  const registering = registerFile(
    { ...tw.adapters, limits: uploadLimitsOf(tw.config) },
    { ...scope, fileName: 'broken.md', body: Readable.from(body()), documentId },
  );
  await expect(registering).rejects.toBeInstanceOf(SourceReadError);
  await expect(registering).rejects.toThrow('could not read broken.md: device error at byte 262144');
  expect(await tw.adapters.objects.exists(objectKeys.source(scope.userId, documentId))).toBe(false);
  expect(await findDocument(tw.adapters.db, documentId)).toBeUndefined();
});

it('reports a failing store as itself, not as an unreadable file', async () => {
  const objects = { ...tw.adapters.objects, putStream: () => Promise.reject(new Error('object store unavailable')) };
  const registering = registerFile(
    { db: tw.adapters.db, objects, limits: uploadLimitsOf(tw.config) },
    { ...scope, fileName: 'fine.md', body: Readable.from([Buffer.from('# Fine\n')]), documentId: randomUUID() },
  );
  await expect(registering).rejects.toThrow('object store unavailable');
  await expect(registering).rejects.not.toBeInstanceOf(SourceReadError);
});

it('removes the stored object when the document row cannot be written', async () => {
  const documentId = randomUUID();
  const deps = {
    db: refusingInserts(tw.adapters.db, 'documents'),
    objects: tw.adapters.objects,
    limits: uploadLimitsOf(tw.config),
  };
  const body = Readable.from([Buffer.from('# Orphan\n\nNever recorded.\n')]);
  await expect(registerFile(deps, { ...scope, fileName: 'orphan.md', body, documentId })).rejects.toThrow(
    /insert into documents refused/,
  );
  expect(await tw.adapters.objects.exists(objectKeys.source(scope.userId, documentId))).toBe(false);
  expect(await findDocument(tw.adapters.db, documentId)).toBeUndefined();
});

it('goes through the upload checks: a type refused from its bytes, the same content twice one document', async () => {
  const binary = path.join(dir, 'tool.md');
  const first = path.join(dir, 'first.md');
  const again = path.join(dir, 'again.md');
  // An ELF header under a .md name: the bytes decide, not the extension.
  await fs.writeFile(binary, Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]));
  const content = `# Twice\n\nThe same content ${randomUUID()}.\n`;
  await fs.writeFile(first, content);
  await fs.writeFile(again, content);

  const results = await ingestFiles(tw.config, tw.adapters, tw.client, [binary, first, again], scope);
  for (const r of results) if (r.documentId) tw.track(r.documentId);

  expect(results[0]).toMatchObject({
    status: 'FAILED',
    documentId: null,
    failureCode: expect.stringMatching(/^(UNSUPPORTED_FILE_TYPE|INVALID_TEXT_ENCODING)$/),
  });
  expect(results[1]).toMatchObject({ status: 'SUCCESS', duplicate: false });
  expect(results[2]).toMatchObject({ status: 'SUCCESS', duplicate: true, documentId: results[1]!.documentId });
  // The run start every path shares names the file in the Web UI.
  const described = await tw.client.workflow.getHandle(ingestWorkflowId(results[1]!.documentId!)).describe();
  expect(await described.staticSummary()).toBe(
    `ingest first.md (${Buffer.byteLength(content)} bytes) in ${scope.datasetId}`,
  );
  const stored = await listDocuments(tw.adapters.db, scope);
  expect(stored.map((d) => d.file_name).filter((n) => n !== 'good.md')).toEqual(['first.md']);
});

it("stores the command's chunking choice with each new document, and chunks by it", async () => {
  const faq = path.join(dir, 'choice.md');
  await fs.writeFile(
    faq,
    Array.from(
      { length: 6 },
      (_, i) => `## How do I set option ${i}?\n\nSet option ${i} in the file ${randomUUID()}.`,
    ).join('\n\n'),
  );
  const chunkingChoice = chunkingChoiceOf({ strategy: 'one', childTokens: 200 }, tw.config.chunking);
  const [result] = await ingestFiles(tw.config, tw.adapters, tw.client, [faq], { ...scope, chunkingChoice });
  tw.track(result!.documentId!);
  expect(result?.status).toBe('SUCCESS');
  expect((await findDocument(tw.adapters.db, result!.documentId!))?.chunking_choice).toEqual({
    strategy: 'one',
    parameters: { childTokens: 200 },
  });
  const plan = await latestPlanOfDocument(tw.adapters.db, result!.documentId!);
  expect(plan).toMatchObject({ state: 'EXECUTED', plan: { strategy: 'one' } });
  // The options are checked by the dataset settings' schema before anything is stored.
  expect(() => chunkingChoiceOf({ childTokens: 100, overlapTokens: 80 }, tw.config.chunking)).toThrow(
    /^PLAN_VALIDATION_FAILED: /,
  );
  // Checked whole: a child size alone that the strategy's overlap does not fit under.
  expect(() => chunkingChoiceOf({ strategy: 'one', childTokens: 50 }, tw.config.chunking)).toThrow(
    /^PLAN_VALIDATION_FAILED: overlapTokens/,
  );
  expect(() => chunkingChoiceOf({ strategy: 'sentences' }, tw.config.chunking)).toThrow(/strategy/);
  expect(chunkingChoiceOf({}, tw.config.chunking)).toBeUndefined();
});
