import { chunkMarkdown, type ChunkerOptions } from '../../../chunker/chunkMarkdown';
import { tokenize } from '../../../tokenizer/tokenize';
import { countTokens } from '../../../tokenizer/countTokens';
import { childrenOf } from '../../../testkit/fixtures/chunkChecks';

const OPTIONS: ChunkerOptions = { maxTokens: 60, overlapTokens: 9 };

/**
 * Children are what is embedded, indexed and weighted (VECTORIZING, KEYWORD_INDEXING and the token
 * plan all read the chunk text), so the section they come from must be in their text, not only in
 * their metadata.
 */
describe('section path in the text of every child', () => {
  const body = Array.from({ length: 30 }, (_, i) => `Step ${i} copies the files and checks them.`).join(' ');
  const markdown = `# Guide\n\nHow to use it.\n\n## Installing on Linux\n\n${body}`;

  it('leads every child of a long section, the ones far from the heading too', () => {
    const kids = childrenOf(chunkMarkdown('doc', markdown, { ...OPTIONS, minTokens: 0 })).filter(
      (kid) => kid.sectionPath.length === 2,
    );
    expect(kids.length).toBeGreaterThan(3);
    for (const kid of kids) {
      expect(kid.text.startsWith('Guide › Installing on Linux\n\n')).toBe(true);
      expect(kid.tokenCount).toBeLessThanOrEqual(OPTIONS.maxTokens);
      // What KEYWORD_INDEXING and SPARSE_VECTORIZING index: the terms of the heading are there.
      expect(tokenize(kid.text)).toEqual(expect.arrayContaining(['installing', 'linux']));
    }
  });

  it('leaves the text before the first heading as it is', () => {
    const kids = childrenOf(chunkMarkdown('doc', 'A preface with no heading.\n\n# Later\n\nBody.', OPTIONS));
    expect(kids.map((kid) => kid.text)).toEqual(['A preface with no heading.', 'Later\n\nBody.']);
  });

  it('keeps the innermost titles of a deep path within a quarter of the budget', () => {
    const titles = [
      'Reference manual of every function',
      'Base package and its many helpers',
      'Arithmetic operators',
      'Examples',
    ];
    const deep = titles
      .map(
        (title, i) =>
          `${'#'.repeat(i + 1)} ${title}\n\nIntro ${i} of some length to keep it a section of its own here.`,
      )
      .join('\n\n');
    const last = childrenOf(chunkMarkdown('doc', deep, { maxTokens: 40, overlapTokens: 5 })).at(-1)!;
    const context = last.text.slice(0, last.text.indexOf('\n\n'));
    expect(context.endsWith('Arithmetic operators › Examples')).toBe(true);
    expect(context).not.toContain('Reference manual');
    expect(countTokens(context)).toBeLessThanOrEqual(10);
  });

  it('cuts a 20,000-word heading to its first words, leaving the budget to the text', () => {
    const title = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(' ');
    const kids = childrenOf(chunkMarkdown('doc', `# ${title}\n\n${body}`, OPTIONS));
    expect(kids.length).toBeGreaterThan(3);
    for (const kid of kids) {
      const context = kid.text.slice(0, kid.text.indexOf('\n\n'));
      expect(title.startsWith(context)).toBe(true);
      expect(countTokens(context)).toBeLessThanOrEqual(OPTIONS.maxTokens / 4);
      expect(countTokens(context)).toBeGreaterThan(OPTIONS.maxTokens / 8);
      expect(kid.tokenCount).toBeLessThanOrEqual(OPTIONS.maxTokens);
    }
  });
});
