import { parseRerankAnswer, RerankAnswerError, rerankRequestBody } from '../../../rerank/rerankProtocol';

describe('the two reranker shapes', () => {
  it("TEI's request and answer: scores by the index each text was sent at", () => {
    expect(rerankRequestBody('tei', 'ignored', 'q', ['a', 'b'])).toEqual({
      query: 'q',
      texts: ['a', 'b'],
      raw_scores: false,
      truncate: true,
    });
    const answer = [
      { index: 1, score: 0.9 },
      { index: 0, score: 0.2 },
    ];
    expect(parseRerankAnswer('tei', answer, 2)).toEqual([0.2, 0.9]);
  });

  it("Cohere's request and answer; a text left out of top_n has no score", () => {
    expect(rerankRequestBody('cohere', 'rerank-v3', 'q', ['a', 'b', 'c'])).toEqual({
      model: 'rerank-v3',
      query: 'q',
      documents: ['a', 'b', 'c'],
      top_n: 3,
      return_documents: false,
    });
    const answer = { results: [{ index: 2, relevance_score: 0.7 }] };
    expect(parseRerankAnswer('cohere', answer, 3)).toEqual([null, null, 0.7]);
  });

  it('logits are mapped to 0..1 by the logistic function, keeping their order', () => {
    const scores = parseRerankAnswer(
      'tei',
      [
        { index: 0, score: -3 },
        { index: 1, score: 0 },
        { index: 2, score: 5 },
      ],
      3,
    ) as number[];
    expect(scores[1]).toBeCloseTo(0.5);
    expect(scores.every((s) => s > 0 && s < 1)).toBe(true);
    expect(scores[0]!).toBeLessThan(scores[1]!);
    expect(scores[1]!).toBeLessThan(scores[2]!);
  });

  it('refuses an answer of the other shape, an index it was not sent, and an index twice', () => {
    expect(() => parseRerankAnswer('tei', { results: [] }, 1)).toThrow(RerankAnswerError);
    expect(() => parseRerankAnswer('cohere', [{ index: 0, score: 1 }], 1)).toThrow(RerankAnswerError);
    expect(() => parseRerankAnswer('tei', [{ index: 3, score: 1 }], 2)).toThrow(/text 3 of 2/);
    expect(() =>
      parseRerankAnswer(
        'tei',
        [
          { index: 0, score: 1 },
          { index: 0, score: 0.5 },
        ],
        2,
      ),
    ).toThrow(/twice/);
  });
});
