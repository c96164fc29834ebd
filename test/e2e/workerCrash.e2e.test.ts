import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Client } from '@temporalio/client';
import type { ChildProcess } from 'node:child_process';
import { connectClient, startIngestion } from '../../client/ingestClient';
import { registerDocument } from '../../testkit/harness/registerDocument';
import { ingestWorkflowId } from '../../contracts/ingest';
import { countChunks, listActiveChunks } from '../../db/repositories/chunks';
import { createAdapters, type Adapters } from '../../composition/adapters';
import { killHard, spawnWorker } from '../../testkit/harness/childWorker';
import { localActivityTypes, scheduledActivityTypes } from '../../testkit/harness/historyEvents';
import { eventually, sectionedMarkdown, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';

const CHUNKS = 1500;
const config = testConfig({ SLUICE_EMBED_BATCH_SIZE: '2' });
const scope = { userId: `user-${randomUUID()}`, datasetId: 'crash' };
const content = sectionedMarkdown(CHUNKS, 'crash');
let adapters: Adapters;
let client: Client;
const spawned: ChildProcess[] = [];
const started: string[] = [];

beforeAll(async () => {
  adapters = createAdapters(config);
  client = await connectClient(config);
});
// No worker of one test may poll the queue during the next one.
afterEach(async () => {
  for (const child of spawned) await killHard(child);
});
afterAll(async () => {
  for (const id of started)
    await client.workflow
      .getHandle(ingestWorkflowId(id))
      .terminate('test done')
      .catch(() => undefined);
  await client.connection.close();
  await adapters.close();
});

function track(child: ChildProcess): ChildProcess {
  spawned.push(child);
  return child;
}

async function ingest(): Promise<string> {
  const doc = await registerDocument(adapters, {
    ...scope,
    fileName: 'big.md',
    body: Readable.from([Buffer.from(content)]),
  });
  started.push(doc.id);
  await startIngestion(client, config, { documentId: doc.id, ...scope });
  return doc.id;
}

it('a worker SIGKILLed mid-VECTORIZING is replaced and the document ends exactly like a clean run', async () => {
  const first = track(spawnWorker(config));
  const crashed = await ingest();
  const atKill = await eventually(
    () => countChunks(adapters.db, crashed),
    (c) => c.dense > 0,
    120_000,
    10,
  );
  await killHard(first);
  const killedAt = Date.now();
  expect(atKill.dense).toBeLessThan(CHUNKS);
  // Nothing embeds while no worker runs: the kill really stopped the work.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const stopped = (await countChunks(adapters.db, crashed)).dense;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect((await countChunks(adapters.db, crashed)).dense).toBe(stopped);
  expect(stopped).toBeLessThan(CHUNKS);

  track(spawnWorker(config));
  const progress = await waitTerminal(client, crashed, 300_000);
  expect(progress.status).toBe('SUCCESS');
  console.log(`recovered ${CHUNKS - atKill.dense} remaining chunks in ${Date.now() - killedAt} ms after SIGKILL`);

  const clean = await ingest();
  expect((await waitTerminal(client, clean, 300_000)).status).toBe('SUCCESS');

  const [a, b] = await Promise.all([countChunks(adapters.db, crashed), countChunks(adapters.db, clean)]);
  expect(a).toEqual(b);
  expect(a).toMatchObject({ active: CHUNKS, dense: CHUNKS, sparse: CHUNKS, keyword: CHUNKS });
  expect(await adapters.vectors.countForDocument(crashed)).toEqual(await adapters.vectors.countForDocument(clean));
  expect(await adapters.keywords.countForDocument(crashed)).toBe(await adapters.keywords.countForDocument(clean));
  const texts = async (id: string) =>
    (await listActiveChunks(adapters.db, { documentId: id, generation: 0 })).map((c) => c.text);
  expect(await texts(crashed)).toEqual(await texts(clean));
}, 420_000);

it('a worker SIGKILLed in a local stage (KEYWORD_INDEXING) is replaced and the stage is redone to the same end', async () => {
  // Every stage after embedding runs locally for this document's 1,500 chunks.
  const local = { SLUICE_LOCAL_STAGE_MAX_CHUNKS: '100000' };
  const first = track(spawnWorker(config, local));
  const crashed = await ingest();
  const atKill = await eventually(
    () => countChunks(adapters.db, crashed),
    (c) => c.keyword > 0,
    120_000,
    10,
  );
  await killHard(first);
  expect(atKill.keyword).toBeLessThan(CHUNKS);
  const killedAt = Date.now();

  track(spawnWorker(config, local));
  expect((await waitTerminal(client, crashed, 300_000)).status).toBe('SUCCESS');
  console.log(
    `local KEYWORD_INDEXING killed at ${atKill.keyword}/${CHUNKS} entries; run finished ${Date.now() - killedAt} ms after SIGKILL`,
  );
  expect(await countChunks(adapters.db, crashed)).toMatchObject({
    active: CHUNKS,
    dense: CHUNKS,
    sparse: CHUNKS,
    keyword: CHUNKS,
  });
  expect(await adapters.keywords.countForDocument(crashed)).toBe(CHUNKS);
  expect((await adapters.vectors.countForDocument(crashed)).dense).toBe(CHUNKS);
  const { events } = await client.workflow.getHandle(ingestWorkflowId(crashed)).fetchHistory();
  expect(localActivityTypes(events ?? [])).toContain('keywordIndexing');
  expect(scheduledActivityTypes(events ?? [])).not.toContain('keywordIndexing');
}, 420_000);
