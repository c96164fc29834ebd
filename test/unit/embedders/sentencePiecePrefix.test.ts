import { prefix } from '../../../embedders/sentencePieceTokenizer';

// What the local model's tokenizer is given: a bounded prefix that the WebAssembly side's UTF-8
// conversion reads whole (a lone surrogate there swallows the rest of the text).
describe('prefix', () => {
  it('keeps short text as is and cuts long text to the limit', () => {
    expect(prefix('hello world', 100)).toBe('hello world');
    expect(prefix('hello world', 5)).toBe('hello');
    expect(prefix('', 5)).toBe('');
  });

  it('never ends inside a surrogate pair', () => {
    const text = 'ab😀cd';
    expect(prefix(text, 3)).toBe('ab');
    expect(prefix(text, 4)).toBe('ab😀');
  });

  it('replaces lone surrogates, and only those, with U+FFFD', () => {
    expect(prefix('a\uD800b\uDC00c😀', 100)).toBe('a\uFFFDb\uFFFDc😀');
    expect(prefix('\uDC00\uD800', 100)).toBe('\uFFFD\uFFFD');
  });

  it('stays linear on a long run of surrogates', () => {
    const lone = '\uD800'.repeat(2_000_000);
    expect(prefix(lone, 4_000_000)).toBe('\uFFFD'.repeat(2_000_000));
  });
});
