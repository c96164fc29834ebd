import { sparseQueryFromTokens, sparseVectorFromTokens, termId } from '../../../sparse/sparseVector';
import { tokenize } from '../../../tokenizer/tokenize';

function expectWellFormed(vector: { indices: number[]; values: number[] }): void {
  expect(vector.values).toHaveLength(vector.indices.length);
  for (let i = 1; i < vector.indices.length; i++) expect(vector.indices[i]!).toBeGreaterThan(vector.indices[i - 1]!);
  for (const index of vector.indices) {
    expect(Number.isInteger(index)).toBe(true);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(index).toBeLessThanOrEqual(0x7fffffff);
  }
  for (const value of vector.values) expect(value).toBeGreaterThan(0);
}

describe('termId', () => {
  it('is stable, fits a signed 32-bit column and separates different terms', () => {
    expect(termId('retry')).toBe(termId('retry'));
    expect(termId('retry')).not.toBe(termId('retries'));
    // FNV-1a of "a" is 0xe40c292c; masked to 31 bits.
    expect(termId('a')).toBe(0xe40c292c & 0x7fffffff);
    expect(termId('向量')).toBeLessThanOrEqual(0x7fffffff);
  });
});

describe('sparseVectorFromTokens', () => {
  it('gives sorted, unique indices with positive weights', () => {
    const tokens = tokenize(
      `${'Durable execution resumes from checkpoints after retries. '.repeat(3)}文档切分 向量检索 pg_stat_activity`,
    );
    const vector = sparseVectorFromTokens(tokens);
    expectWellFormed(vector);
    expect(vector.indices).toHaveLength(new Set(tokens).size);
  });

  it('saturates term frequency: repeats weigh more, but far less than linearly', () => {
    const vector = sparseVectorFromTokens(['retry', 'retry', 'retry', 'retry', 'retry', 'retry', 'backoff']);
    const weight = (term: string): number => vector.values[vector.indices.indexOf(termId(term))]!;
    expect(weight('backoff')).toBeCloseTo(1);
    expect(weight('retry')).toBeGreaterThan(weight('backoff'));
    expect(weight('retry')).toBeLessThan(2.2);
  });

  it('is empty for no tokens', () => {
    expect(sparseVectorFromTokens([])).toEqual({ indices: [], values: [] });
  });
});

describe('sparseQueryFromTokens', () => {
  it('weighs each distinct term once', () => {
    const query = sparseQueryFromTokens(['vector', 'search', 'vector']);
    expectWellFormed(query);
    expect(query.indices).toEqual([termId('vector'), termId('search')].sort((a, b) => a - b));
    expect(query.values).toEqual([1, 1]);
  });
});
