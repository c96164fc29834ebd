import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Client } from '@temporalio/client';
import type { ChildProcess } from 'node:child_process';
import { connectClient, startIngestion } from '../../client/ingestClient';
import { registerDocument } from '../../client/registerDocument';
import { ingestWorkflowId } from '../../contracts/ingest';
import { countChunks, listActiveChunks } from '../../db/repositories/chunks';
import { createAdapters, type Adapters } from '../../worker/adapters';
import { killHard, spawnWorker } from '../support/childWorker';
import { eventually, sectionedMarkdown, waitTerminal } from '../support/ingestHelpers';
import { testConfig } from '../support/testConfig';

const CHUNKS = 1500;
const config = testConfig({ SLUICE_EMBED_BATCH_SIZE: '2' });
const scope = { userId: `user-${randomUUID()}`, datasetId: 'crash' };
const content = sectionedMarkdown(CHUNKS, 'crash');
let adapters: Adapters;
let client: Client;
let worker: ChildProcess | null = null;
const started: string[] = [];

beforeAll(async () => {
  adapters = createAdapters(config);
  client = await connectClient(config);
});
afterAll(async () => {
  if (worker) await killHard(worker);
  for (const id of started) await client.workflow.getHandle(ingestWorkflowId(id)).terminate('test done').catch(() => undefined);
  await client.connection.close();
  await adapters.close();
});

async function ingest(): Promise<string> {
  const doc = await registerDocument(adapters, { ...scope, fileName: 'big.md', body: Readable.from([Buffer.from(content)]) });
  started.push(doc.id);
  await startIngestion(client, config, { documentId: doc.id, ...scope });
  return doc.id;
}

it('a worker SIGKILLed mid-VECTORIZING is replaced and the document ends exactly like a clean run', async () => {
  worker = spawnWorker(config);
  const crashed = await ingest();
  const atKill = await eventually(
    () => countChunks(adapters.db, crashed),
    (c) => c.dense > 0,
    120_000,
    10,
  );
  await killHard(worker);
  const killedAt = Date.now();
  expect(atKill.dense).toBeLessThan(CHUNKS);
  // Nothing embeds while no worker runs: the kill really stopped the work.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const stopped = (await countChunks(adapters.db, crashed)).dense;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect((await countChunks(adapters.db, crashed)).dense).toBe(stopped);
  expect(stopped).toBeLessThan(CHUNKS);

  worker = spawnWorker(config);
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
  const texts = async (id: string) => (await listActiveChunks(adapters.db, id)).map((c) => c.text);
  expect(await texts(crashed)).toEqual(await texts(clean));
}, 420_000);
