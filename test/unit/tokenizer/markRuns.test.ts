import { capMarkRuns } from '../../../tokenizer/markRuns';

const ACUTE = '\u0301';
const LOW = '\u0316';
/** MUSICAL SYMBOL COMBINING STEM: a combining mark outside the BMP, a surrogate pair. */
const ASTRAL_MARK = '\u{1D165}';

describe('capMarkRuns', () => {
  it('leaves text whose mark runs are at most 30 long as it is', () => {
    const text = `e${ACUTE.repeat(30)} a${LOW}${ACUTE} ${'x'.repeat(1000)}`;
    expect(capMarkRuns(text)).toBe(text);
  });

  it('keeps the first 30 marks of a longer run, counting a surrogate pair as one mark', () => {
    const run = `${ASTRAL_MARK}${ACUTE}`.repeat(40);
    expect(capMarkRuns(`a${run}b c${LOW.repeat(31)}`)).toBe(
      `a${`${ASTRAL_MARK}${ACUTE}`.repeat(15)}b c${LOW.repeat(30)}`,
    );
  });

  it('caps half-width voiced sound marks, which NFKC turns into combining marks', () => {
    expect(capMarkRuns(`ｶ${'\uff9e'.repeat(50)}`)).toBe(`ｶ${'\uff9e'.repeat(30)}`);
  });

  it('cuts a run of ten million marks, which a `+` pattern cannot span without overflowing', () => {
    expect(capMarkRuns(`e${`${ACUTE}${ASTRAL_MARK}`.repeat(5_000_000)} end`)).toBe(
      `e${`${ACUTE}${ASTRAL_MARK}`.repeat(15)} end`,
    );
  });
});
