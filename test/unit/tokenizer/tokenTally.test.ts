import { countTokens, joinTallies, tallyTokens, tokensOfTally } from '../../../tokenizer/countTokens';

/** The chunker counts each piece once and joins the tallies: they must give countTokens exactly. */
describe('token tallies', () => {
  const alphabet = [
    'a',
    'Zeta',
    '_',
    '42',
    ' ',
    '\n',
    '\t',
    '.',
    '-',
    'é',
    '中文',
    'ー',
    '😀',
    '\u3000',
    '\u00a0',
    '한',
    'ß',
    '\u0301',
    '#',
    'longidentifier',
  ];
  let seed = 7;
  const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
  const text = (): string => Array.from({ length: next(8) }, () => alphabet[next(alphabet.length)]).join('');

  it('gives the count of the text', () => {
    for (let i = 0; i < 2_000; i++) {
      const sample = text();
      expect(tokensOfTally(tallyTokens(sample))).toBe(countTokens(sample));
    }
  });

  it('joins into the count of the concatenation, a word run across the seam counted once', () => {
    expect(tokensOfTally(joinTallies(tallyTokens('abcdefgh'), tallyTokens('ijklmnop')))).toBe(
      countTokens('abcdefghijklmnop'),
    );
    for (let i = 0; i < 5_000; i++) {
      const [a, b, c] = [text(), text(), text()];
      const left = joinTallies(joinTallies(tallyTokens(a), tallyTokens(b)), tallyTokens(c));
      const right = joinTallies(tallyTokens(a), joinTallies(tallyTokens(b), tallyTokens(c)));
      expect([tokensOfTally(left), tokensOfTally(right)]).toEqual([countTokens(a + b + c), countTokens(a + b + c)]);
    }
  });

  it('counts a lone high surrogate alone, so a cut after it changes nothing', () => {
    for (const [a, b] of [
      ['x\ud800', '\nnext line'],
      ['\ud83d', ' word'],
      ['\ud83d', '.'],
    ]) {
      expect(tokensOfTally(joinTallies(tallyTokens(a!), tallyTokens(b!)))).toBe(countTokens(a! + b!));
    }
  });
});
