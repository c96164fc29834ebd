import { CORPUS } from '../../eval/retrieval/corpus';
import { describeQuestions } from '../../eval/retrieval/labels';
import { FAMILY_SPLIT, isHeldOut } from '../../eval/retrieval/split';

describe('the retrieval eval split by family', () => {
  it('holds out the families added for it and tunes on the ones the eval had before', () => {
    expect(isHeldOut('octave')).toBe(true);
    expect(isHeldOut('libreoffice')).toBe(true);
    expect(isHeldOut('debian-faq')).toBe(false);
    expect(isHeldOut('postgresql')).toBe(false);
  });

  it('lists every family of the corpus and no other, each side in both languages', () => {
    const families = new Set(CORPUS.map((d) => d.family));
    expect([...families].sort()).toEqual(Object.keys(FAMILY_SPLIT).sort());
    for (const heldOut of [true, false]) {
      const languages = new Set(CORPUS.filter((d) => isHeldOut(d.family) === heldOut).map((d) => d.language));
      expect([...languages].sort()).toEqual(['en', 'zh']);
    }
  });

  it('never puts two documents of one set on different sides', () => {
    const sides = new Map<string, Set<boolean>>();
    for (const d of CORPUS) sides.set(d.set, (sides.get(d.set) ?? new Set()).add(isHeldOut(d.family)));
    expect([...sides.values()].every((s) => s.size === 1)).toBe(true);
  });

  it("takes a question's side from its document's family, whatever its id", () => {
    const [held, tuning] = describeQuestions([
      { id: 'a', doc: 'octave-manual', question: 'q', quote: 'quote text' },
      { id: 'b', doc: 'faq-en-basic-defs', question: 'q', quote: 'quote text' },
    ]);
    expect(held?.heldOut).toBe(true);
    expect(tuning?.heldOut).toBe(false);
  });
});
