import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalModelEmbedder, type LocalModelEmbedder } from '../../embedders/localModelEmbedder';
import { LOCAL_MODEL } from '../../embedders/localModelFiles';
import { createAdapters } from '../../composition/adapters';
import { testConfig } from '../../testkit/harness/testConfig';

// The real model, as `bash scripts/stack.sh start` installs it (CI runs that first). Without it
// every test here fails with the embedder's message naming the stack script: never skipped.

const config = testConfig({ SLUICE_EMBEDDER: 'local-model' });
const cosine = (a: number[], b: number[]): number => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);

let embedder: LocalModelEmbedder;
beforeAll(() => {
  const { dir, maxTokens } = config.embedding.localModel;
  // Two threads even on one core: a batch is then always split, which the batching test needs.
  embedder = createLocalModelEmbedder({ modelDir: dir, threads: 2, maxTokens });
});
afterAll(() => embedder?.close());

/** Each query's paraphrase shares (almost) no words with it; the other paraphrases are unrelated. */
const ENGLISH: [string, string][] = [
  ['How do I change the password of my account?', 'Steps to reset the login credentials for a user.'],
  ['The train to the airport was cancelled this morning.', 'No rail service ran to the terminal early today.'],
  ['My laptop battery drains very quickly.', 'The notebook loses its charge in a short time.'],
  ['Where can I buy fresh vegetables nearby?', 'Is there a greengrocer close to here?'],
  [
    'The doctor prescribed antibiotics for the infection.',
    'A physician gave her medicine to treat the bacterial illness.',
  ],
  ['Swap the dimensions of a multi-dimensional array.', 'Permute the axes of a matrix, a generalized transpose.'],
];
const CHINESE: [string, string][] = [
  ['我怎样修改账户的密码？', '重置用户登录凭据的步骤。'],
  ['今天早上去机场的火车取消了。', '今早没有开往航站楼的铁路服务。'],
  ['我的笔记本电脑电池耗电很快。', '这台电脑的电量很快就用完了。'],
  ['附近哪里可以买到新鲜蔬菜？', '这儿附近有菜市场吗？'],
  ['医生给感染开了抗生素。', '大夫为她的细菌性疾病开了药。'],
  ['数据库备份应该每天晚上自动运行。', '每晚需要自动保存一份数据库的副本。'],
];
const TRANSLATIONS: [string, string][] = [
  ['The weather is nice today.', '今天天气很好。'],
  ['Where is the nearest hospital?', '最近的医院在哪里？'],
  ['The worker retries the failed task automatically.', '工作进程会自动重试失败的任务。'],
  ['I would like a cup of tea, please.', '请给我一杯茶。'],
];

describe('the local model embedder (Universal Sentence Encoder multilingual, int8 ONNX)', () => {
  it('is what the local-model setting chooses: 512-d vectors, named after the model', () => {
    expect(config.embedding.dimension).toBe(512);
    expect(embedder.model).toBe(LOCAL_MODEL.name);
    expect(embedder.dimension).toBe(512);
  });

  it('returns one L2-normalised 512-d vector per text, empty text included', async () => {
    const vectors = await embedder.embed(['Checkpoints live in Postgres.', '', '向量检索', '!!!']);
    expect(vectors).toHaveLength(4);
    for (const vector of vectors) {
      expect(vector).toHaveLength(512);
      expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 4);
    }
    expect(await embedder.embed([])).toEqual([]);
  });

  it.each([
    ['English', ENGLISH],
    ['Chinese', CHINESE],
  ])('ranks each %s paraphrase first among all candidates for its query', async (_language, pairs) => {
    const queries = await embedder.embed(pairs.map(([query]) => query));
    const candidates = await embedder.embed(pairs.map(([, paraphrase]) => paraphrase));
    const ranked = queries.map((query) => {
      const scores = candidates.map((candidate) => cosine(query, candidate));
      return scores.indexOf(Math.max(...scores));
    });
    expect(ranked).toEqual(pairs.map((_, i) => i));
  });

  it('puts an English sentence and its Chinese translation close together (cosine > 0.5)', async () => {
    const english = await embedder.embed(TRANSLATIONS.map(([en]) => en));
    const chinese = await embedder.embed(TRANSLATIONS.map(([, zh]) => zh));
    for (const [i, vector] of english.entries()) expect(cosine(vector, chinese[i] as number[])).toBeGreaterThan(0.5);
  });

  it('gives exactly the same vectors batched (split over threads) as one by one', async () => {
    const texts = [...ENGLISH.flat(), ...CHINESE.flat(), 'x '.repeat(3000)];
    const batched = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) expect(await embedder.embed([text])).toEqual([batched[i]]);
  });

  it('reads a long text up to its token limit only, so a huge text costs no more than that', async () => {
    const sentence = 'Temporal resumes an interrupted run from its last checkpoint. ';
    const long = sentence.repeat(200);
    // Far past the limit, and what follows it changes nothing.
    const [head, huge] = await embedder.embed([long, long + '完全不同的内容。'.repeat(2_000_000)]);
    expect(cosine(head as number[], huge as number[])).toBeCloseTo(1, 6);
    // Within the limit, the text's words do count.
    const [short, shortMore] = await embedder.embed([sentence, sentence + 'Unrelated: bananas are yellow and sweet.']);
    expect(cosine(short as number[], shortMore as number[])).toBeLessThan(0.99);
  });

  it('keeps onnxruntime telemetry off (it would create its event log in /tmp)', async () => {
    await embedder.embed(['telemetry check']);
    for (const dir of new Set(['/tmp', os.tmpdir()]))
      expect(fs.existsSync(path.join(dir, `mat-debug-${process.pid}.log`))).toBe(false);
  });
});

describe('start-up without the model', () => {
  it('stops with a message that says how to install it', () => {
    const missing = testConfig({
      SLUICE_EMBEDDER: 'local-model',
      SLUICE_MODEL_DIR: path.join(os.tmpdir(), 'sluice-no-model-here'),
    });
    expect(() => createAdapters(missing)).toThrow(
      /use-multilingual-v3-int8 is not installed.*bash scripts\/stack\.sh start/,
    );
  });
});
