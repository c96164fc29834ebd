import { reciprocalRankFusion, RRF_K } from '../../search/reciprocalRankFusion';

describe('reciprocalRankFusion', () => {
  it('rewards chunks that several retrievers agree on over a single first place', () => {
    const fused = reciprocalRankFusion({
      dense: [{ chunkId: 'solo', score: 0.99 }, { chunkId: 'shared', score: 0.5 }],
      keyword: [{ chunkId: 'shared', score: 3 }],
      sparse: [{ chunkId: 'shared', score: 1 }],
    });
    expect(fused.map((f) => f.chunkId)).toEqual(['shared', 'solo']);
    expect(fused[0]?.score).toBeCloseTo(1 / (RRF_K + 2) + 2 / (RRF_K + 1), 10);
    expect(fused[0]?.ranks).toEqual({ dense: 2, keyword: 1, sparse: 1 });
  });

  it('returns nothing for empty lists', () => {
    expect(reciprocalRankFusion({ dense: [], keyword: [] })).toEqual([]);
  });
});
