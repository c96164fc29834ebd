import { countTokens } from '../../../tokenizer/countTokens';

describe('countTokens', () => {
  it('is zero for empty or whitespace-only text', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens(' \n\t ')).toBe(0);
  });

  it('charges about 1.3 tokens per Latin word and one per punctuation mark', () => {
    expect(countTokens('one two three four five six seven eight nine ten')).toBe(13);
    expect(countTokens('Hello, world!')).toBe(5);
  });

  it('charges about one token per CJK character', () => {
    expect(countTokens('文档切分')).toBe(4);
    expect(countTokens('向量检索。')).toBe(5);
  });

  it('charges long runs of letters by length, so a blob cannot hide in one "word"', () => {
    expect(countTokens('a'.repeat(4_000))).toBe(1_000);
  });

  it('never counts a concatenation above the sum of its parts', () => {
    const parts = ['alpha be', 'ta 文档', '切分 gamma.', '', 'delta'];
    const sum = parts.reduce((total, part) => total + countTokens(part), 0);
    expect(countTokens(parts.join(''))).toBeLessThanOrEqual(sum);
  });
});
