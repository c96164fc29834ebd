import { rankGrid } from '../../eval/retrieval/fusionGrid';
import type { EvalQuestion } from '../../eval/retrieval/labels';
import { withMemoryDense } from '../../eval/retrieval/memoryDenseStore';
import type { QuestionRun } from '../../eval/retrieval/rankers';
import type { VectorStore } from '../../stores/ports';

const scope = { userId: 'u', datasetId: 'd' };
const model = { model: 'm', dimension: 2 };

/** Only what withMemoryDense does not take over is reached on the wrapped store. */
const realStore = { name: 'postgres' } as unknown as VectorStore;

function question(id: string, language: 'en' | 'zh'): EvalQuestion {
  return {
    id,
    doc: 'doc',
    question: `question ${id}`,
    quote: 'q',
    style: 'paraphrase',
    set: 'set',
    family: 'octave',
    docLanguage: language,
    language,
    tuned: false,
    heldOut: false,
  };
}

const hits = (...ids: string[]) => ids.map((chunkId, i) => ({ chunkId, score: 1 - i / 10 }));

describe("the retrieval eval's second dense vector", () => {
  it('keeps the second dense vectors apart from the first, even under the same model name', async () => {
    const store = withMemoryDense(realStore);
    await store.upsertDense(scope, model, [{ chunkId: 'a', documentId: 'doc', vector: [1, 0] }]);
    await store.upsertLanguageDense(scope, model, [{ chunkId: 'b', documentId: 'doc', vector: [0, 1] }]);
    expect((await store.searchDense(scope, model, [1, 1], 10)).map((h) => h.chunkId)).toEqual(['a']);
    expect((await store.searchLanguageDense(scope, model, [1, 1], 10)).map((h) => h.chunkId)).toEqual(['b']);
    expect(await store.searchLanguageDense(scope, { model: 'other', dimension: 2 }, [1, 1], 10)).toEqual([]);
  });

  it('ranks the second dense space by cosine, nearest first', async () => {
    const store = withMemoryDense(realStore);
    await store.upsertLanguageDense(scope, model, [
      { chunkId: 'far', documentId: 'doc', vector: [0, 1] },
      { chunkId: 'near', documentId: 'doc', vector: [3, 0.1] },
    ]);
    expect((await store.searchLanguageDense(scope, model, [1, 0], 10)).map((h) => h.chunkId)).toEqual(['near', 'far']);
  });

  it('leaves a fixed weight out of the fusion grid and carries it into every cell', () => {
    const runs: QuestionRun[] = [
      {
        question: question('1', 'en'),
        lists: { d: hits('x', 'y'), s: hits('y', 'x'), b: hits('y') },
        relevant: new Set(['y']),
      },
    ];
    const base = { lists: { dense: 'd', sparse: 's', languageDense: 'b' } };
    const free = rankGrid([runs], base, () => 'en');
    const fixed = rankGrid([runs], base, () => 'en', { languageDense: 2 });
    expect(fixed.length * 6).toBe(free.length);
    expect(new Set(fixed.map((p) => p.settings.weights.languageDense))).toEqual(new Set([2]));
    expect(new Set(free.map((p) => p.settings.weights.languageDense)).size).toBe(6);
  });
});
