import { SluiceError } from '../../../contracts/sluiceError';
import { createLocalHashEmbedder } from '../../../embedders/localHashEmbedder';

const cosine = (a: number[], b: number[]): number => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
const norm = (vector: number[]): number => Math.sqrt(cosine(vector, vector));

describe('createLocalHashEmbedder', () => {
  const embedder = createLocalHashEmbedder({ dimension: 256 });

  it('names its model and dimension, and returns one vector of that size per text', async () => {
    expect(embedder.model).toBe('local-hash-v1');
    expect(embedder.dimension).toBe(256);
    const vectors = await embedder.embed(['one', 'two', 'three']);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) expect(vector).toHaveLength(256);
  });

  it('is deterministic, also across instances', async () => {
    const text = 'Temporal retries activities with exponential backoff. 向量检索';
    const [first] = await embedder.embed([text]);
    const [second] = await createLocalHashEmbedder({ dimension: 256 }).embed([text]);
    expect(second).toEqual(first);
  });

  it('returns unit vectors, including for text without any term', async () => {
    const vectors = await embedder.embed(['Checkpoints live in Postgres.', '', '!!! ... ???', '文档切分']);
    for (const vector of vectors) expect(norm(vector)).toBeCloseTo(1, 10);
  });

  it('ranks texts that share words above unrelated texts', async () => {
    const [query, related, unrelated, chineseQuery, chineseRelated, chineseUnrelated] = await embedder.embed([
      'How does Temporal retry a failed activity with backoff?',
      'Failed activities are retried by Temporal using exponential backoff.',
      'Postgres full-text search ranks documents with ts_rank.',
      '文档切分的参数是什么',
      '文档切分时子块的最大词元数是四百',
      '账单与发票说明',
    ]);
    expect(cosine(query!, related!)).toBeGreaterThan(cosine(query!, unrelated!) + 0.3);
    expect(cosine(chineseQuery!, chineseRelated!)).toBeGreaterThan(cosine(chineseQuery!, chineseUnrelated!) + 0.2);
  });

  it('rejects a dimension that is not a positive integer', () => {
    for (const dimension of [0, -3, 12.5]) {
      let failure: unknown;
      try {
        createLocalHashEmbedder({ dimension });
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(SluiceError);
      expect((failure as SluiceError).code).toBe('EMBEDDING_DIMENSION_UNSUPPORTED');
    }
  });
});
