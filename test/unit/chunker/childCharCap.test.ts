import { childCharCap, cutByChars } from '../../../chunker/charCap';
import { chunkWithPlan } from '../../../chunker/chunkWithPlan';
import { CHUNKING_STRATEGIES, type ChunkingPlan } from '../../../contracts/chunkingPlan';

// Whitespace costs no tokens: before the character cap, "alpha", 20 million spaces and "beta" made
// one child of 20,000,043 characters, which every search of its dataset then read and returned.
const HOSTILE = `alpha${' '.repeat(20_000_000)}beta`;
const CHILD_TOKENS = 400;

describe('the character cap on a child', () => {
  it.each(CHUNKING_STRATEGIES)('keeps every child of %s under the cap, with the words kept', (strategy) => {
    const plan: ChunkingPlan = {
      strategy,
      parameters: { childTokens: CHILD_TOKENS, overlapTokens: 60, parentTokens: null },
      reason: 'test',
    };
    const chunks = chunkWithPlan('doc', HOSTILE, plan, { maxChunks: 10_000 });
    const children = chunks.filter((chunk) => chunk.kind === 'child');
    expect(children.length).toBeGreaterThan(0);
    const longest = Math.max(...children.map((child) => child.text.length));
    expect(longest).toBeLessThanOrEqual(childCharCap(CHILD_TOKENS) + 200);
    const text = children.map((child) => child.text).join(' ');
    expect(text).toContain('alpha');
    expect(text).toContain('beta');
  });

  it('cuts after whitespace, drops whitespace-only parts and never splits a surrogate pair', () => {
    expect(cutByChars(`one two three${' '.repeat(100)}four`, 10)).toEqual(['one two', 'three', 'four']);
    const emoji = '😀'.repeat(6);
    const parts = cutByChars(emoji, 5);
    expect(parts.join('')).toBe(emoji);
    for (const part of parts) expect(part.length % 2).toBe(0);
  });
});
