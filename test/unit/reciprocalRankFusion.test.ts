import { DEFAULT_FUSION, reciprocalRankFusion, RRF_K } from '../../search/reciprocalRankFusion';

const plain = { k: RRF_K, weights: {} };

describe('reciprocalRankFusion', () => {
  it('rewards chunks that several retrievers agree on over a single first place', () => {
    const fused = reciprocalRankFusion(
      {
        dense: [
          { chunkId: 'solo', score: 0.99 },
          { chunkId: 'shared', score: 0.5 },
        ],
        keyword: [{ chunkId: 'shared', score: 3 }],
        sparse: [{ chunkId: 'shared', score: 1 }],
      },
      plain,
    );
    expect(fused.map((f) => f.chunkId)).toEqual(['shared', 'solo']);
    expect(fused[0]?.score).toBeCloseTo(1 / (RRF_K + 2) + 2 / (RRF_K + 1), 10);
    expect(fused[0]?.ranks).toEqual({ dense: 2, keyword: 1, sparse: 1 });
  });

  it('multiplies each list by its weight; a list without a weight counts 1', () => {
    const lists = {
      dense: [{ chunkId: 'a', score: 0.9 }],
      sparse: [{ chunkId: 'b', score: 2 }],
      other: [{ chunkId: 'c', score: 1 }],
    };
    const fused = reciprocalRankFusion(lists, { k: 10, weights: { dense: 3, sparse: 0.5 } });
    expect(fused.map((f) => [f.chunkId, f.score])).toEqual([
      ['a', 3 / 11],
      ['c', 1 / 11],
      ['b', 0.5 / 11],
    ]);
  });

  it('leaves out a list weighted 0, as search leaves it unasked', () => {
    const lists = {
      dense: [{ chunkId: 'a', score: 0.9 }],
      identifier: [
        { chunkId: 'a', score: 3 },
        { chunkId: 'z', score: 2 },
      ],
    };
    const fused = reciprocalRankFusion(lists, { k: 1, weights: { dense: 1, identifier: 0 } });
    expect(fused).toEqual([{ chunkId: 'a', score: 0.5, ranks: { dense: 1 } }]);
  });

  it('lets a heavier list keep its first place against two lighter lists that agree', () => {
    const lists = {
      dense: [
        { chunkId: 'semantic', score: 0.9 },
        { chunkId: 'lexical', score: 0.2 },
      ],
      sparse: [{ chunkId: 'lexical', score: 5 }],
      keyword: [{ chunkId: 'lexical', score: 5 }],
    };
    expect(reciprocalRankFusion(lists, plain)[0]?.chunkId).toBe('lexical');
    expect(reciprocalRankFusion(lists, { k: 1, weights: { dense: 1, sparse: 0.1, keyword: 0.1 } })[0]?.chunkId).toBe(
      'semantic',
    );
  });

  it('defaults to the tuned setting, which weights the four lists search fuses', () => {
    const lists = { dense: [{ chunkId: 'x', score: 1 }] };
    expect(reciprocalRankFusion(lists)).toEqual(reciprocalRankFusion(lists, DEFAULT_FUSION));
    expect(Object.keys(DEFAULT_FUSION.weights).sort()).toEqual(['dense', 'identifier', 'keyword', 'sparse']);
    expect(DEFAULT_FUSION.k).toBeGreaterThan(0);
  });

  it('returns nothing for empty lists', () => {
    expect(reciprocalRankFusion({ dense: [], keyword: [] })).toEqual([]);
  });
});
