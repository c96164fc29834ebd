import { ceilingsMarkdown, fusionCeilings } from '../../eval/retrieval/ceilings';
import type { QuestionRun, Ranker } from '../../eval/retrieval/rankers';
import type { SearchHit } from '../../stores/ports';

// The retrieval eval's ceilings: what reordering the search's lists could reach, beside its fusion.
const hits = (...ids: string[]): SearchHit[] => ids.map((chunkId, i) => ({ chunkId, score: 1 - i / 100 }) as SearchHit);
const pad = (n: number): string[] => Array.from({ length: n }, (_, i) => `pad${i}`);

function run(language: string, relevant: string, lists: Record<string, SearchHit[]>): QuestionRun {
  return {
    question: { id: relevant, question: 'q', language, style: 'paraphrase' },
    lists,
    relevant: new Set([relevant]),
  } as unknown as QuestionRun;
}

// Fuses by taking the first list whole: the ceilings must not depend on how it ranks.
const firstList: Ranker = { name: 'first', rank: (r) => (r.lists.a ?? []).map((h) => h.chunkId).slice(0, 10) };

it('counts the fused top 5, some single list top 5 and the union of the lists, per question language', () => {
  const runs = [
    // In the first list's top 5: every figure counts it.
    run('en', 'x', { a: hits('x', ...pad(9)), b: hits(...pad(10)) }),
    // Sixth in the first list, second in the other: some list's top 5, not the fused top 5.
    run('en', 'y', { a: hits(...pad(5), 'y'), b: hits('p', 'y') }),
    // Deep in the first list, eighth in the other: a candidate, in no top 5.
    run('en', 'z', { a: hits(...pad(20), 'z'), b: hits(...pad(7), 'z') }),
    // In no list: nothing reaches it.
    run('en', 'w', { a: hits('p'), b: hits('q') }),
    run('zh', 'v', { a: hits('v') }),
  ];
  const ceilings = fusionCeilings(runs, firstList, ['a', 'b']);
  expect(ceilings.en).toEqual({ questions: 4, fusedTop5: 0.25, someListTop5: 0.5, amongCandidates: 0.75 });
  expect(ceilings.zh).toEqual({ questions: 1, fusedTop5: 1, someListTop5: 1, amongCandidates: 1 });
});

it('reads only the lists it is given', () => {
  const runs = [run('en', 'y', { a: hits('p'), b: hits('y') })];
  expect(fusionCeilings(runs, firstList, ['a']).en?.amongCandidates).toBe(0);
  expect(fusionCeilings(runs, firstList, ['a', 'b']).en?.amongCandidates).toBe(1);
});

it('writes one table row a language with three decimals', () => {
  const md = ceilingsMarkdown('Ceilings', {
    en: { questions: 3, fusedTop5: 1 / 3, someListTop5: 2 / 3, amongCandidates: 1 },
  });
  expect(md).toContain('### Ceilings');
  expect(md).toContain('| en | 3 | 0.333 | 0.667 | 1.000 |');
});
