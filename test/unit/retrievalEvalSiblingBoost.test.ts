import { siblingBoostRanker, chooseSiblingWeight } from '../../eval/retrieval/siblingBoost';
import type { QuestionRun } from '../../eval/retrieval/rankers';
import type { SearchHit } from '../../stores/ports';

// Parent-passage scoring in the retrieval eval: a child gains its siblings' fused scores.
const hit = (chunkId: string): SearchHit => ({ chunkId, score: 1 }) as SearchHit;
const parents: Record<string, string> = { a1: 'A', a2: 'A', a3: 'A', b1: 'B', c1: 'C' };
const parentOf = (id: string): string | null => parents[id] ?? null;
const spec = { lists: { dense: 'd', sparse: 's' }, settings: { k: 1, weights: { dense: 1, sparse: 1 } } };

function run(relevant: string): QuestionRun {
  return {
    question: { id: 'q', question: 'how do I keep a job alive', language: 'en', style: 'paraphrase' },
    // b1 and c1 lead one list each; a1..a3, one parent's children, come after them.
    lists: { d: [hit('b1'), hit('a1')], s: [hit('c1'), hit('a3'), hit('a2')] },
    relevant: new Set([relevant]),
  } as unknown as QuestionRun;
}

it('keeps the fusion order at weight 0 and lifts a parent reached through several children above it', () => {
  const plain = siblingBoostRanker('plain', spec, () => 'en', parentOf, 0).rank(run('a3'));
  expect(plain.slice(0, 2).sort()).toEqual(['b1', 'c1']);
  const boosted = siblingBoostRanker('boosted', spec, () => 'en', parentOf, 1).rank(run('a3'));
  expect(boosted.slice(0, 3).sort()).toEqual(['a1', 'a2', 'a3']);
  expect(boosted.slice(3).sort()).toEqual(['b1', 'c1']);
});

it('chooses the weight on the runs it is given: 0 when the answer is a lone child, more when it is a sibling', () => {
  expect(chooseSiblingWeight([run('b1')], spec, () => 'en', parentOf)).toBe(0);
  expect(chooseSiblingWeight([run('a3')], spec, () => 'en', parentOf)).toBeGreaterThan(0);
});
