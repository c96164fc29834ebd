import path from 'node:path';
import { callOffThread, stopOffThreadCalls } from '../../../testkit/harness/offThread';

/**
 * Text that made tokenize() quadratic: minutes at these sizes. It runs on a worker thread so that
 * Jest's timeout can fail it; each test checks the terms, never the time.
 */
const TOKENIZE = path.join(__dirname, '../../../tokenizer/tokenize.ts');

afterEach(stopOffThreadCalls);

const tokenizeOffThread = (text: string): Promise<string[]> => callOffThread<string[]>(TOKENIZE, 'tokenize', text);

describe('tokenize on hostile text', () => {
  it('drops an identifier of 500,000 hyphenated parts and keeps the next word', async () => {
    await expect(tokenizeOffThread(`${'x-'.repeat(500_000)} pg_stat_activity`)).resolves.toEqual(['pg_stat_activity']);
  });

  it.each([
    ['combining marks', '\u0301\u0316'],
    ['half-width voiced sound marks, which NFKC turns into combining ones', '\uff9e\u0316'],
  ])('keeps a letter stacked with a million %s as one term', async (_name, pair) => {
    const tokens = await tokenizeOffThread(`e${pair.repeat(500_000)} café`);
    expect(tokens).toHaveLength(2);
    expect(tokens[0]!.length).toBeLessThanOrEqual(31);
    expect(tokens[1]).toBe('café');
  });
});
