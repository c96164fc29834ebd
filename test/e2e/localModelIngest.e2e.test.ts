import { randomUUID } from 'node:crypto';
import { LOCAL_MODEL } from '../../embedders/localModelFiles';
import { hybridSearch } from '../../search/hybridSearch';
import { ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// The local profile's default embedder end to end: a real worker embeds with the model that
// `bash scripts/stack.sh start` installed, records it on every chunk, and search finds a passage
// from a question that shares no word with it.

const scope = { userId: `user-${randomUUID()}`, datasetId: 'office-handbook' };
const HANDBOOK = [
  '# Office handbook',
  '## Backups\n\nCopies of every database are written to tape each night and kept for thirty days.',
  '## Network\n\nThe firewall blocks incoming connections except on ports 22 and 443.',
  '## 打印机\n\n办公室的打印机没有墨水时，请联系行政部门更换墨盒。',
  '## Holidays\n\nStaff take twenty-five days of annual leave, booked through their manager.',
].join('\n\n');

let tw: TestWorker;
beforeAll(async () => {
  tw = await startTestWorker({ config: testConfig({ SLUICE_EMBEDDER: 'local-model' }) });
});
afterAll(() => tw?.shutdown());

it('embeds with the local model, records it on each chunk, and answers paraphrased questions', async () => {
  const { documentId } = await ingestBuffer(tw, HANDBOOK, 'handbook.md', scope);
  expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');

  const chunks = await tw.adapters.db
    .selectFrom('chunks')
    .select(['embedding_model', 'embedding_dimension'])
    .where('document_id', '=', documentId)
    .where('kind', '=', 'child')
    .execute();
  expect(chunks.length).toBeGreaterThanOrEqual(4);
  for (const chunk of chunks) expect(chunk).toEqual({ embedding_model: LOCAL_MODEL.name, embedding_dimension: 512 });
  const vectors = await tw.adapters.db
    .selectFrom('dense_vectors')
    .select(['model', 'dimension'])
    .where('document_id', '=', documentId)
    .execute();
  expect(vectors).toHaveLength(chunks.length);
  for (const vector of vectors) expect(vector).toEqual({ model: LOCAL_MODEL.name, dimension: 512 });

  // No word in common with the passage that answers: only a semantic model finds it.
  const backup = await hybridSearch(tw.adapters, scope, 'how long is saved data retained for disaster recovery?', 1);
  expect(backup[0]?.text).toContain('written to tape');
  // Across languages: a Chinese question, an English passage; an English question, a Chinese passage.
  // Each names the other language, as a user asking across languages does: search otherwise
  // prefers passages in the question's own language (search/languageRouting.ts).
  const firewall = await hybridSearch(tw.adapters, scope, '英文手册里，防火墙允许哪些端口的入站连接？', 1);
  expect(firewall[0]?.text).toContain('firewall blocks');
  const printer = await hybridSearch(
    tw.adapters,
    scope,
    'in the Chinese handbook, who do I call when the printer runs out of ink?',
    1,
  );
  expect(printer[0]?.text).toContain('打印机');
});
