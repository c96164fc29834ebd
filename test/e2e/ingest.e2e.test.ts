import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { STAGES } from '../../contracts/stages';
import { countChunks, listActiveChunks } from '../../db/repositories/chunks';
import { findDocument } from '../../db/repositories/documents';
import { getPipeline, stageStatusesOf } from '../../db/repositories/pipelines';
import { stageColumns } from '../../db/repositories/stageColumns';
import { hybridSearch } from '../../search/hybridSearch';
import { ingestBuffer, waitTerminal } from '../../testkit/harness/ingestHelpers';
import { storeProfiles } from '../../testkit/harness/profiles';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// Everything real: dev server, Postgres and the stores of each profile, all activities.
const FIXTURES = path.resolve(__dirname, '..', 'fixtures');

describe.each(storeProfiles())('%s', (_profile, env) => {
  const scope = { userId: `user-${randomUUID()}`, datasetId: 'manuals' };
  let tw: TestWorker;

  beforeAll(async () => {
    tw = await startTestWorker({ config: testConfig(env) });
  });
  afterAll(() => tw.shutdown());

  async function expectFullyIndexed(documentId: string): Promise<void> {
    const doc = await findDocument(tw.adapters.db, documentId);
    const pipeline = await getPipeline(tw.adapters.db, doc?.last_task_id ?? '');
    expect(pipeline.pipeline_status).toBe('SUCCESS');
    expect(pipeline.finished_at).toBeInstanceOf(Date);
    const statuses = stageStatusesOf(pipeline);
    for (const stage of STAGES) {
      expect(statuses[stage]).toBe('SUCCESS');
      expect(pipeline[stageColumns(stage).ms]).toEqual(expect.any(Number));
    }
    const counts = await countChunks(tw.adapters.db, documentId);
    expect(counts.active).toBeGreaterThan(0);
    expect(counts).toMatchObject({ dense: counts.active, sparse: counts.active, keyword: counts.active });
    expect(await tw.adapters.vectors.countForDocument(documentId)).toEqual({
      dense: counts.active,
      sparse: counts.active,
    });
    expect(await tw.adapters.keywords.countForDocument(documentId)).toBe(counts.active);
  }

  it.each([
    ['checkpoints.md', 'marmalade heron', ['Checkpoints in a durable pipeline', 'Why chunk ids are deterministic']],
    ['field-notes.txt', 'copper lighthouse keeper', []],
    ['上传指南.html', '青铜灯塔守护者', ['文档上传指南', '切分与向量化']],
  ])(
    '%s ends SUCCESS with every stage, chunk, vector and keyword entry in place, and search finds its phrase',
    async (fileName, phrase, sectionPath) => {
      const { documentId } = await ingestBuffer(tw, fs.readFileSync(path.join(FIXTURES, fileName)), fileName, scope);
      const progress = await waitTerminal(tw.client, documentId);
      expect(progress.failureCode).toBeNull();
      expect(progress.status).toBe('SUCCESS');
      await expectFullyIndexed(documentId);

      const hits = await hybridSearch(tw.adapters, scope, phrase, 3);
      expect(hits[0]?.documentId).toBe(documentId);
      expect(hits[0]?.text).toContain(phrase);
      if (sectionPath.length) expect(hits[0]?.sectionPath).toEqual(sectionPath);
    },
  );

  it('keeps boilerplate out of the html chunks', async () => {
    const { documentId } = await ingestBuffer(
      tw,
      fs.readFileSync(path.join(FIXTURES, '上传指南.html')),
      'guide.html',
      scope,
    );
    expect((await waitTerminal(tw.client, documentId)).status).toBe('SUCCESS');
    const texts = (await listActiveChunks(tw.adapters.db, { documentId, generation: 0 })).map((c) => c.text).join('\n');
    expect(texts).toContain('系统会自动解析文件');
    expect(texts).not.toContain('版权所有');
    expect(texts).not.toContain('帮助中心');
  });

  it("does not return another user's chunks", async () => {
    const other = { userId: `user-${randomUUID()}`, datasetId: scope.datasetId };
    expect(await hybridSearch(tw.adapters, scope, 'marmalade heron', 5)).not.toEqual([]);
    expect(await hybridSearch(tw.adapters, other, 'marmalade heron', 5)).toEqual([]);
  });
});
