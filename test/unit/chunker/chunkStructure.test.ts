import { chunkMarkdown, type ChunkerOptions } from '../../../chunker/chunkMarkdown';
import type { ChunkDraft } from '../../../contracts/chunk';
import { countTokens } from '../../../tokenizer/countTokens';
import { childBody } from '../../../testkit/fixtures/chunkChecks';

const children = (chunks: ChunkDraft[]): ChunkDraft[] => chunks.filter((chunk) => chunk.kind === 'child');
const OPTIONS: ChunkerOptions = { maxTokens: 60, overlapTokens: 9 };

describe('chunkMarkdown structure', () => {
  it('records on each parent the chunk_index range of its children', () => {
    const chunks = chunkMarkdown(
      'doc',
      `# A\n\n${'Alpha words go here. '.repeat(40)}\n\n# B\n\nShort section body that stands alone.`,
      OPTIONS,
    );
    for (const parent of chunks.filter((chunk) => chunk.kind === 'parent')) {
      const range = parent.childRange!;
      const mine = chunks.filter((chunk) => chunk.parentId === parent.chunkId).map((chunk) => chunk.chunkIndex);
      expect(mine).toEqual(Array.from({ length: range.last - range.first + 1 }, (_, i) => range.first + i));
      expect(range.first).toBe(parent.chunkIndex + 1);
    }
    expect(children(chunks).every((chunk) => chunk.childRange === null)).toBe(true);
  });

  it('folds a one-line intro into its first subsection instead of leaving it a fragment', () => {
    const markdown = `# Expressions\n\nSee below.\n\n## Operators\n\n${'Operators combine values. '.repeat(5)}\n\n## Functions\n\nFunctions take arguments and return values.`;
    const chunks = chunkMarkdown('doc', markdown, { ...OPTIONS, minTokens: 10 });
    const parents = chunks.filter((chunk) => chunk.kind === 'parent');
    expect(parents.map((chunk) => chunk.sectionPath)).toEqual([
      ['Expressions', 'Operators'],
      ['Expressions', 'Functions'],
    ]);
    expect(parents[0]!.text.startsWith('# Expressions\n\nSee below.\n\n## Operators\n\nOperators')).toBe(true);
    expect(children(chunks)[0]!.text).toContain('See below.');
  });

  it('balances children so the last one is not a scrap', () => {
    const body = Array.from({ length: 13 }, (_, i) => `Sentence ${i} about retries.`).join(' ');
    const sizes = children(chunkMarkdown('doc', body, { maxTokens: 60, overlapTokens: 0 })).map(
      (chunk) => chunk.tokenCount,
    );
    expect(sizes.length).toBe(2);
    expect(Math.min(...sizes) / Math.max(...sizes)).toBeGreaterThan(0.6);
  });

  it('cuts a large table between rows and repeats the header row in every part', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `| item-${i} | ${i * 10} EUR |`);
    const table = ['| Item | Price |', '| --- | --- |', ...rows].join('\n');
    const kids = children(
      chunkMarkdown('doc', `# Prices\n\nThe list follows.\n\n${table}\n\nAll prices include tax.`, OPTIONS),
    );
    const parts = kids.filter((chunk) => chunk.text.includes('item-'));
    expect(parts.length).toBeGreaterThan(3);
    for (const part of parts) {
      expect(part.text.startsWith('Prices\n\n| Item | Price |\n| --- | --- |\n| item-')).toBe(true);
      expect(
        childBody(part)
          .split('\n')
          .every((line) => /^\| .* \|$/.test(line)),
      ).toBe(true);
      expect(part.tokenCount).toBeLessThanOrEqual(OPTIONS.maxTokens);
    }
    const seen = parts.flatMap((part) => childBody(part).split('\n').slice(2));
    expect(seen).toEqual(rows);
    expect(kids.some((chunk) => chunk.text.includes('All prices include tax.'))).toBe(true);
  });

  it('cuts a long code block between lines and fences every part again', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `set label ${i} "point ${i}" at ${i},${i}`);
    const kids = children(chunkMarkdown('doc', `# Script\n\n\`\`\`gnuplot\n${lines.join('\n')}\n\`\`\``, OPTIONS));
    expect(kids.length).toBeGreaterThan(3);
    for (const kid of kids) {
      expect(kid.text.startsWith('Script\n\n```gnuplot\n')).toBe(true);
      expect(kid.text.endsWith('\n```')).toBe(true);
      expect(countTokens(kid.text)).toBeLessThanOrEqual(OPTIONS.maxTokens);
    }
    expect(kids.flatMap((kid) => childBody(kid).split('\n').slice(1, -1))).toEqual(lines);
  });

  it('cuts an overlong Chinese sentence at clause punctuation before cutting blindly', () => {
    const sentence = `${Array.from({ length: 12 }, (_, i) => `第${i}个步骤负责上传文档`).join('，')}。`;
    const kids = children(chunkMarkdown('doc', sentence, { maxTokens: 40, overlapTokens: 0 }));
    expect(kids.length).toBeGreaterThan(1);
    for (const kid of kids.slice(0, -1)) expect(kid.text).toMatch(/，$/);
  });

  it('turns a single 2 MB line into sane children', () => {
    const line = 'lorem ipsum dolor sit amet '.repeat(80_000);
    const kids = children(chunkMarkdown('doc', line, { maxTokens: 400, overlapTokens: 60 }));
    expect(kids.length).toBeGreaterThan(1000);
    expect(kids.every((chunk) => chunk.tokenCount <= 400 && chunk.tokenCount > 100)).toBe(true);
  });
});
