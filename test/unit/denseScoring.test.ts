import { bestFirst, cosineOfQuantized, cosineOfSent, norm, signBits } from '../../stores/denseScoring';

/** A real[] as Postgres's array_send writes it: a 20-byte header, then (length 4, float) per element. */
function arraySend(values: number[]): Buffer {
  const sent = Buffer.alloc(20 + values.length * 8);
  values.forEach((value, i) => {
    sent.writeInt32BE(4, 20 + i * 8);
    sent.writeFloatBE(value, 20 + i * 8 + 4);
  });
  return sent;
}

/** A vector as sluice_quantized writes it: round(127 x / max|x|) + 128 per element. */
function quantize(values: number[]): Buffer {
  const max = Math.max(...values.map(Math.abs));
  return Buffer.from(values.map((x) => (max === 0 ? 128 : Math.round((x / max) * 127) + 128)));
}

const exactCosine = (a: number[], b: number[]): number =>
  a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0) / (norm(a) * norm(b));

describe('dense scoring over what Postgres keeps of a vector', () => {
  const query = [0.3, -0.8, 0.1, 0.5];
  const row = [0.25, -0.6, -0.2, 0.7];

  it('reads the exact cosine from array_send bytes', () => {
    expect(cosineOfSent(arraySend(row), query, norm(query))).toBeCloseTo(exactCosine(query, row), 6);
  });

  it('scores quantized bytes close to the exact cosine, whatever the row was scaled by', () => {
    const scaled = row.map((x) => x * 37);
    const score = cosineOfQuantized(quantize(scaled), query, norm(query));
    expect(score).not.toBeNull();
    expect(Math.abs((score as number) - exactCosine(query, row))).toBeLessThan(0.01);
    expect(Math.abs((score as number) - exactCosine(query, row))).toBeGreaterThan(0);
  });

  it('gives a zero vector no cosine, and ranks it after every scored row', () => {
    expect(cosineOfQuantized(quantize([0, 0, 0, 0]), query, norm(query))).toBeNull();
    expect(cosineOfSent(arraySend([0, 0, 0, 0]), query, norm(query))).toBeNull();
    const ranked = [
      { chunkId: 'zero', score: null },
      { chunkId: 'b', score: -0.5 },
      { chunkId: 'a', score: -0.5 },
      { chunkId: 'best', score: 0.9 },
    ].sort(bestFirst);
    expect(ranked.map((r) => r.chunkId)).toEqual(['best', 'a', 'b', 'zero']);
  });

  it('writes the signs as Postgres does: a positive value is 1, zero and below are 0', () => {
    expect(signBits([0.2, 0, -0.1, 3])).toBe('1001');
  });
});
