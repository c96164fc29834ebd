import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS, type ChunkerOptions } from '../../../chunker/chunkMarkdown';
import type { ChunkDraft } from '../../../contracts/chunk';
import { SluiceError } from '../../../contracts/sluiceError';
import { countTokens } from '../../../tokenizer/countTokens';
import { childBody } from '../../../testkit/fixtures/chunkChecks';

const SMALL: ChunkerOptions = { maxTokens: 40, overlapTokens: 10 };

const children = (chunks: ChunkDraft[]): ChunkDraft[] => chunks.filter((chunk) => chunk.kind === 'child');
const parents = (chunks: ChunkDraft[]): ChunkDraft[] => chunks.filter((chunk) => chunk.kind === 'parent');

function sentences(count: number, prefix: string): string {
  return Array.from({ length: count }, (_, i) => `${prefix} sentence number ${i} talks about durable retries.`).join(
    ' ',
  );
}

/** Longest prefix of `next` that `previous` ends with. */
function sharedBoundary(previous: string, next: string): string {
  for (let length = Math.min(previous.length, next.length); length > 0; length--) {
    const candidate = next.slice(0, length);
    if (previous.endsWith(candidate)) return candidate;
  }
  return '';
}

describe('chunkMarkdown', () => {
  const sample = readFileSync(path.join(__dirname, '../../../samples/temporal-durable-execution.md'), 'utf8');

  it('gives the same chunks and ids for the same document and markdown', () => {
    expect(chunkMarkdown('doc-a', sample, DEFAULT_CHUNKER_OPTIONS)).toEqual(
      chunkMarkdown('doc-a', sample, DEFAULT_CHUNKER_OPTIONS),
    );
  });

  it('gives a different document different ids for the same text', () => {
    const first = chunkMarkdown('doc-a', sample, DEFAULT_CHUNKER_OPTIONS);
    const second = chunkMarkdown('doc-b', sample, DEFAULT_CHUNKER_OPTIONS);
    expect(second.map((chunk) => chunk.text)).toEqual(first.map((chunk) => chunk.text));
    const firstIds = new Set(first.map((chunk) => chunk.chunkId));
    expect(second.some((chunk) => firstIds.has(chunk.chunkId))).toBe(false);
  });

  it('derives ids as 32 hex chars of sha256(documentId, chunkIndex, text)', () => {
    for (const chunk of chunkMarkdown('doc-a', sample, DEFAULT_CHUNKER_OPTIONS)) {
      const expected = createHash('sha256')
        .update(`doc-a\u0000${chunk.chunkIndex}\u0000${chunk.text}`)
        .digest('hex')
        .slice(0, 32);
      expect(chunk.chunkId).toBe(expected);
    }
  });

  it('builds section paths from ATX headings, truncating at each level', () => {
    const markdown = [
      'Intro before any heading.',
      '# Guide',
      'Guide body.',
      '## Install',
      'Install body.',
      '#### Deep',
      'Deep body.',
      '### Linux ###',
      'Linux body.',
      '## Usage',
      'Usage body.',
      '# Appendix',
      'Appendix body.',
    ].join('\n\n');
    // minTokens 0: every body here is a one-liner that would otherwise be folded into its subsection.
    const paths = parents(chunkMarkdown('doc', markdown, { ...DEFAULT_CHUNKER_OPTIONS, minTokens: 0 })).map(
      (chunk) => chunk.sectionPath,
    );
    expect(paths).toEqual([
      [],
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Install', 'Deep'],
      ['Guide', 'Install', 'Linux'],
      ['Guide', 'Usage'],
      ['Appendix'],
    ]);
  });

  it('skips heading-only sections but still uses them in the path', () => {
    const chunks = chunkMarkdown(
      'doc',
      '# Empty\n\n## Also empty\n\n### Filled\n\nText here.\n',
      DEFAULT_CHUNKER_OPTIONS,
    );
    expect(chunks.map((chunk) => [chunk.kind, chunk.sectionPath])).toEqual([
      ['parent', ['Empty', 'Also empty', 'Filled']],
      ['child', ['Empty', 'Also empty', 'Filled']],
    ]);
    expect(chunks[0]?.text).toBe('### Filled\n\nText here.');
    // The child leads with its section path: what it is about is in the text that gets embedded.
    expect(chunks[1]?.text).toBe('Empty › Also empty › Filled\n\nText here.');
  });

  it('does not treat # lines inside fenced code as headings', () => {
    const markdown =
      '# Setup\n\nRun this:\n\n```sh\n# install deps\nnpm ci\n~~~\n## still code\n```\n\nAfter the code.\n\n~~~~\n# tilde fence\n~~~~\n';
    const chunks = chunkMarkdown('doc', markdown, DEFAULT_CHUNKER_OPTIONS);
    expect(parents(chunks)).toHaveLength(1);
    expect(chunks.every((chunk) => chunk.sectionPath.join('/') === 'Setup')).toBe(true);
    expect(chunks[0]?.text).toContain('## still code');
    expect(chunks[0]?.text).toContain('# tilde fence');
  });

  it('follows each parent with its children and numbers everything in document order', () => {
    const markdown = `# One\n\n${sentences(20, 'First')}\n\n# Two\n\n${sentences(20, 'Second')}`;
    const chunks = chunkMarkdown('doc', markdown, SMALL);
    expect(chunks.map((chunk) => chunk.chunkIndex)).toEqual(chunks.map((_, i) => i));
    let parent: ChunkDraft | undefined;
    for (const chunk of chunks) {
      if (chunk.kind === 'parent') {
        expect(chunk.parentId).toBeNull();
        parent = chunk;
        continue;
      }
      expect(parent).toBeDefined();
      expect(chunk.parentId).toBe(parent?.chunkId);
      expect(chunk.sectionPath).toEqual(parent?.sectionPath);
      // Children are their section path, then a verbatim slice of their section, overlap included.
      expect(chunk.text.startsWith(`${parent?.sectionPath.join(' › ')}\n\n`)).toBe(true);
      expect(parent?.text).toContain(childBody(chunk));
    }
    expect(parents(chunks).map((chunk) => chunk.sectionPath)).toEqual([['One'], ['Two']]);
    expect(children(chunks).filter((chunk) => chunk.sectionPath[0] === 'Two').length).toBeGreaterThan(3);
  });

  it('keeps children within maxTokens and reports their counts', () => {
    const chunks = chunkMarkdown(
      'doc',
      `# Long\n\n${sentences(200, 'Long')}\n\n${'文档切分与向量检索。'.repeat(300)}`,
      SMALL,
    );
    expect(children(chunks).length).toBeGreaterThan(20);
    for (const chunk of chunks) {
      expect(chunk.text.trim()).not.toBe('');
      expect(chunk.tokenCount).toBe(countTokens(chunk.text));
      expect(chunk.charCount).toBe(chunk.text.length);
    }
    for (const chunk of children(chunks)) expect(chunk.tokenCount).toBeLessThanOrEqual(SMALL.maxTokens);
  });

  it('starts each child with about overlapTokens of the previous one', () => {
    const kids = children(chunkMarkdown('doc', sentences(60, 'Overlap'), SMALL));
    expect(kids.length).toBeGreaterThan(5);
    for (let i = 1; i < kids.length; i++) {
      const shared = sharedBoundary(kids[i - 1]!.text, kids[i]!.text);
      expect(countTokens(shared)).toBeGreaterThanOrEqual(3);
      expect(countTokens(shared)).toBeLessThanOrEqual(SMALL.overlapTokens);
    }
  });

  it('repeats nothing when overlapTokens is 0', () => {
    const kids = children(chunkMarkdown('doc', sentences(60, 'Plain'), { maxTokens: 40, overlapTokens: 0 }));
    expect(kids.length).toBeGreaterThan(5);
    expect(kids.map((chunk) => chunk.text).join(' ')).toBe(sentences(60, 'Plain'));
  });

  it('splits Chinese text at Chinese sentence punctuation', () => {
    const text = Array.from({ length: 30 }, (_, i) => `第${i}段讲述文档切分和向量检索的流程。`).join('');
    const kids = children(chunkMarkdown('doc', text, { maxTokens: 50, overlapTokens: 0 }));
    expect(kids.length).toBeGreaterThan(5);
    for (const chunk of kids) expect(chunk.text.endsWith('。')).toBe(true);
  });

  it('hard-cuts a 2 MB single line without separators, losslessly', () => {
    const line = 'x'.repeat(2_000_000);
    const chunks = chunkMarkdown('doc', line, { maxTokens: 400, overlapTokens: 0 });
    const kids = children(chunks);
    expect(kids.every((chunk) => chunk.tokenCount <= 400 && chunk.text.length > 0)).toBe(true);
    expect(kids.map((chunk) => chunk.text).join('')).toBe(line);
  });

  it('chunks a 5 MB markdown document within the budget', () => {
    const section = (i: number): string =>
      `## Section ${i}\n\n${sentences(12, `S${i}`)}\n\n${'文档切分把章节拆成子块。'.repeat(40)}\n\n\`\`\`sh\n# comment\nls\n\`\`\`\n\n`;
    let markdown = '# Big\n\n';
    for (let i = 0; markdown.length < 5_000_000; i++) markdown += section(i);
    const chunks = chunkMarkdown('doc', markdown, DEFAULT_CHUNKER_OPTIONS);
    expect(parents(chunks).length).toBeGreaterThan(1000);
    expect(children(chunks).every((chunk) => chunk.tokenCount <= DEFAULT_CHUNKER_OPTIONS.maxTokens)).toBe(true);
  });

  it('never emits an empty chunk and emits none for blank markdown', () => {
    expect(chunkMarkdown('doc', '   \n\n\t\n', DEFAULT_CHUNKER_OPTIONS)).toEqual([]);
    expect(chunkMarkdown('doc', '# A\n\n## B\n', DEFAULT_CHUNKER_OPTIONS)).toEqual([]);
  });

  it.each([
    { maxTokens: 4, overlapTokens: 0 },
    { maxTokens: 100, overlapTokens: 60 },
    { maxTokens: 100.5, overlapTokens: 10 },
    { maxTokens: 100, overlapTokens: -1 },
  ])('rejects invalid options %o with CHUNKING_FAILED', (options) => {
    let failure: unknown;
    try {
      chunkMarkdown('doc', 'text', options);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(SluiceError);
    expect((failure as SluiceError).code).toBe('CHUNKING_FAILED');
  });
});
