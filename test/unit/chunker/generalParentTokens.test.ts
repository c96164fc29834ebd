import { chunkMarkdown } from '../../../chunker/chunkMarkdown';
import { chunkWithPlan } from '../../../chunker/chunkWithPlan';
import { splitParents } from '../../../chunker/splitParents';
import type { ChunkDraft } from '../../../contracts/chunk';
import type { ChunkingPlan } from '../../../contracts/chunkingPlan';
import { countTokens } from '../../../tokenizer/countTokens';

// `general` under parentTokens: a section larger than it becomes several parents, each at most
// parentTokens, cut at paragraph boundaries, with its children inside it; null cuts as before.

const general = (parentTokens: number | null): ChunkingPlan => ({
  strategy: 'general',
  parameters: { childTokens: 100, overlapTokens: 10, parentTokens },
  reason: 'test',
});
const LIMITS = { maxChunks: 10_000 };
const parents = (chunks: ChunkDraft[]) => chunks.filter((c) => c.kind === 'parent');

const paragraph = (i: number) =>
  `Paragraph ${i} tells how the lantern valve ${i} is opened, checked and closed again after use.`;
const LONG_SECTION = [
  '# Valves',
  ...Array.from({ length: 40 }, (_, i) => paragraph(i)),
  '## Short',
  'A short one.',
].join('\n\n');

function expectChildrenInsideParents(chunks: ChunkDraft[]): void {
  chunks.forEach((chunk, i) => expect(chunk.chunkIndex).toBe(i));
  for (const parent of parents(chunks)) {
    const own = chunks.filter((c) => c.parentId === parent.chunkId);
    expect(own.length).toBeGreaterThan(0);
    expect(parent.childRange).toEqual({ first: own[0]!.chunkIndex, last: own[own.length - 1]!.chunkIndex });
    // Every child's body (after its section path line) is text of its own parent.
    for (const child of own) expect(parent.text).toContain(child.text.split('\n\n').slice(1).join('\n\n'));
  }
}

describe('general with parentTokens', () => {
  it('null keeps one parent per section, exactly as chunkMarkdown cuts', () => {
    const chunks = chunkWithPlan('doc', LONG_SECTION, general(null), LIMITS);
    expect(chunks).toEqual(chunkMarkdown('doc', LONG_SECTION, { maxTokens: 100, overlapTokens: 10 }));
    expect(parents(chunks).map((p) => p.sectionPath.at(-1))).toEqual(['Valves', 'Short']);
  });

  it('cuts a section larger than parentTokens into parents at paragraph boundaries, each within it', () => {
    const chunks = chunkWithPlan('doc', LONG_SECTION, general(200), LIMITS);
    const valves = parents(chunks).filter((p) => p.sectionPath.at(-1) === 'Valves');
    expect(valves.length).toBeGreaterThan(3);
    for (const parent of valves) {
      expect(countTokens(parent.text)).toBeLessThanOrEqual(200);
      expect(parent.tokenCount).toBe(countTokens(parent.text));
      // Each repeats the heading, and every paragraph it holds is whole.
      expect(parent.text.startsWith('# Valves\n\n')).toBe(true);
      for (const block of parent.text.split('\n\n').slice(1)) expect(block).toMatch(/^Paragraph \d+ .*use\.$/);
    }
    // Every paragraph is in exactly one parent, in order.
    const held = valves.flatMap((p) => p.text.split('\n\n').slice(1));
    expect(held).toEqual(Array.from({ length: 40 }, (_, i) => paragraph(i)));
    // A section within parentTokens is one parent, as before.
    expect(parents(chunks).filter((p) => p.sectionPath.at(-1) === 'Short')).toHaveLength(1);
    expectChildrenInsideParents(chunks);
  });

  it('cuts a paragraph larger than a whole parent at its sentences', () => {
    const run = Array.from({ length: 60 }, (_, i) => `Sentence ${i} of the one long paragraph.`).join(' ');
    const chunks = chunkWithPlan('doc', `# Long\n\n${run}`, general(120), LIMITS);
    expect(parents(chunks).length).toBeGreaterThan(2);
    for (const parent of parents(chunks)) expect(countTokens(parent.text)).toBeLessThanOrEqual(120);
    expectChildrenInsideParents(chunks);
  });

  it('keeps a table or code block whole in one parent when it fits', () => {
    const table = ['| a | b |', '| --- | --- |', '| 1 | 2 |'].join('\n');
    const parts = splitParents([paragraph(1), table, paragraph(2)].join('\n\n'), 40);
    expect(parts).toContain(table);
    expect(parts.join('\n\n')).toBe([paragraph(1), table, paragraph(2)].join('\n\n'));
  });

  it('stays bounded on a long run of blank-line-like whitespace', () => {
    const hostile = `# H\n\n${'\n \t'.repeat(50_000)}word\n\n${'x'.repeat(20_000)}`;
    const chunks = chunkWithPlan('doc', hostile, general(100), LIMITS);
    for (const parent of parents(chunks)) expect(countTokens(parent.text)).toBeLessThanOrEqual(100);
    expectChildrenInsideParents(chunks);
  });
});
