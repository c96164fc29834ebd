import { createBgeEmbedders, type BgeEmbedders } from '../../embedders/bgeEmbedder';
import { BGE_MODEL_IDENTITIES } from '../../contracts/localModel';
import { testConfig } from '../../testkit/harness/testConfig';

// The real bge-small models, as `bash scripts/stack.sh start` installs them (scripts/stack/bge.sh).
// Without them every test here fails with the embedder's message naming the stack script.

const config = testConfig({ SLUICE_LANGUAGE_DENSE: 'on' });
const cosine = (a: number[], b: number[]): number => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);

let embedders: BgeEmbedders;
beforeAll(() => {
  // Two threads even on one core: a batch is then always split.
  embedders = createBgeEmbedders({ modelDir: config.embedding.localModel.dir, threads: 2, maxTokens: 512 });
});
afterAll(() => embedders?.close());

describe('the bge-small embedders (the second dense vector)', () => {
  it('makes L2-normalised vectors of each model’s size: 384 (en), 512 (zh)', async () => {
    for (const language of ['en', 'zh'] as const) {
      const embedder = embedders.of(language);
      expect(embedder.model).toBe(BGE_MODEL_IDENTITIES[language].name);
      const vectors = await embedder.embed(['Checkpoints live in Postgres.', '', '向量检索']);
      expect(vectors).toHaveLength(3);
      for (const vector of vectors) {
        expect(vector).toHaveLength(BGE_MODEL_IDENTITIES[language].dimension);
        expect(Math.hypot(...vector)).toBeCloseTo(1, 4);
      }
    }
  });

  it('ranks a paraphrase above an unrelated sentence, in each language, for a query with its instruction', async () => {
    const en = embedders.of('en');
    const [paraphrase, unrelated] = await en.embed([
      'Steps to change the login credentials of a user.',
      'The train to the airport was cancelled this morning.',
    ]);
    const query = await en.embedQuery('how do I reset my password');
    expect(cosine(query, paraphrase ?? [])).toBeGreaterThan(cosine(query, unrelated ?? []) + 0.1);

    const zh = embedders.of('zh');
    const [zhParaphrase, zhUnrelated] = await zh.embed(['重置用户登录凭据的步骤。', '今天早上去机场的火车取消了。']);
    const zhQuery = await zh.embedQuery('怎样修改账户密码');
    expect(cosine(zhQuery, zhParaphrase ?? [])).toBeGreaterThan(cosine(zhQuery, zhUnrelated ?? []) + 0.1);
  });

  it('gives a text the same vector alone and in a batch split over threads (bge-zh is wrong in padded batches)', async () => {
    const texts = [
      '数据库备份应该每天晚上自动运行。',
      '短',
      '今天天气很好，我们去公园散步吧。',
      '防火墙允许哪些端口？',
    ];
    const zh = embedders.of('zh');
    const batched = await zh.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [alone] = await zh.embed([text]);
      expect(cosine(alone ?? [], batched[i] ?? [])).toBeGreaterThan(0.9999);
    }
  });

  it('cuts a text beyond 512 tokens instead of failing, in bounded time per text', async () => {
    const [long] = await embedders.of('en').embed(['word '.repeat(200_000)]);
    expect(long).toHaveLength(384);
  });
});
