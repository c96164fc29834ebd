import { fnv1a, isHeldOut } from '../../eval/retrieval/split';

describe('the retrieval eval held-out split', () => {
  it('depends on the question id alone, and holds out about half', () => {
    const ids = Array.from({ length: 400 }, (_, i) => `q-${i}`);
    const held = ids.filter((id) => isHeldOut(id, false));
    expect(held.length).toBeGreaterThan(160);
    expect(held.length).toBeLessThan(240);
    expect(ids.filter((id) => isHeldOut(id, false))).toEqual(held);
  });

  it('never holds out a question on a set the defaults were tuned on', () => {
    const odd = ['a', 'b', 'c', 'd', 'e', 'f'].find((id) => fnv1a(id) % 2 === 1) ?? '';
    expect(isHeldOut(odd, false)).toBe(true);
    expect(isHeldOut(odd, true)).toBe(false);
  });

  it('is FNV-1a', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
  });
});
