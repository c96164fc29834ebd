import { chineseWords } from '../../../tokenizer/chineseWords';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('chineseWords', () => {
  it('cuts a long run into pieces: dictionary words throughout, but for a few at the cuts', () => {
    const compound = chineseWords('数据库管理系统');
    const words = chineseWords('数据库管理系统'.repeat(3_000));
    // 21,000 characters are five cuts; each may turn the compound it splits into other words.
    const strays = words.filter((word) => !compound.includes(word));
    expect(strays.length).toBeGreaterThan(0);
    expect(strays.length).toBeLessThanOrEqual(5 * compound.length);
    expect(words.length - strays.length).toBeGreaterThanOrEqual((3_000 - 5) * compound.length);
  });

  it('never cuts a surrogate pair between pieces', () => {
    // After one BMP character, every piece boundary falls between the halves of a pair.
    const words = chineseWords(`数${'\u{20000}'.repeat(5_000)}`);
    expect(words.join('')).toContain('\u{20000}');
    expect(words.filter((word) => LONE_SURROGATE.test(word))).toEqual([]);
  });
});
