import { chunkMarkdown } from '../../../chunker/chunkMarkdown';
import { chunkWithPlan } from '../../../chunker/chunkWithPlan';
import { pageMarker } from '../../../chunker/pageMarkers';
import type { ChunkDraft } from '../../../contracts/chunk';
import { CHUNKING_STRATEGIES, type ChunkingPlan, type ChunkingStrategy } from '../../../contracts/chunkingPlan';

const plan = (strategy: ChunkingStrategy, parameters: Partial<ChunkingPlan['parameters']> = {}): ChunkingPlan => ({
  strategy,
  parameters: { childTokens: 400, overlapTokens: 60, parentTokens: null, ...parameters },
  reason: 'test',
});
const LIMITS = { maxChunks: 10_000 };
const children = (chunks: ChunkDraft[]) => chunks.filter((c) => c.kind === 'child');
const parents = (chunks: ChunkDraft[]) => chunks.filter((c) => c.kind === 'parent');

/** Every parent's childRange names exactly the children that point at it, in order. */
function expectWellFormed(chunks: ChunkDraft[]): void {
  chunks.forEach((chunk, i) => expect(chunk.chunkIndex).toBe(i));
  for (const parent of parents(chunks)) {
    const own = chunks.filter((c) => c.parentId === parent.chunkId).map((c) => c.chunkIndex);
    expect(own.length).toBeGreaterThan(0);
    expect(parent.childRange).toEqual({ first: own[0], last: own[own.length - 1] });
  }
  for (const child of children(chunks)) expect(child.tokenCount).toBeLessThanOrEqual(400);
}

const FAQ = [
  '# Frequently asked questions',
  'Answers to what people ask about the service.',
  '## How do I reset my password?',
  'Open the account page and choose Reset. A mail with a link arrives within minutes.',
  '## Why is my upload refused?',
  'Files over 100 MB are refused as FILE_TOO_LARGE; smaller files are refused only when the quota of the user has no room left for them, and the error says which.',
  '### Limits per plan',
  'The free plan allows 10 MB per file.',
  '## Contact',
  'Q: Who answers the phone?',
  'The support desk, from 9 to 5.',
  'Q: Is there a chat?',
  'Yes, on the help page.',
].join('\n\n');

const TABLE_ROWS = Array.from({ length: 120 }, (_, i) => `| item-${i} | warehouse ${i % 7} | ${i * 3} units |`);
const SHEET = ['# Sheet: Stock', '| Item | Location | Quantity |', '| --- | --- | --- |', ...TABLE_ROWS].join('\n');

describe('chunkWithPlan', () => {
  it('general is chunkMarkdown with the plan parameters; page markers only add each chunk its pages', () => {
    const markdown = '# A\n\nfirst text\n\n## B\n\nsecond text';
    const marked = `${pageMarker(1)}\n\n# A\n\nfirst text\n\n${pageMarker(2)}\n\n## B\n\nsecond text`;
    const expected = chunkMarkdown('doc', markdown, { maxTokens: 200, overlapTokens: 20 });
    expect(chunkWithPlan('doc', markdown, plan('general', { childTokens: 200, overlapTokens: 20 }), LIMITS)).toEqual(
      expected,
    );
    const paged = chunkWithPlan('doc', marked, plan('general', { childTokens: 200, overlapTokens: 20 }), LIMITS);
    expect(paged.map(({ pages: _pages, ...rest }) => rest)).toEqual(expected);
    expect(paged.map((c) => [c.kind, c.text.includes('second') ? 'B' : 'A', c.pages])).toEqual(
      expected.map((c) => [
        c.kind,
        c.text.includes('second') ? 'B' : 'A',
        c.text.includes('first') && c.text.includes('second')
          ? { first: 1, last: 2 }
          : c.text.includes('second')
            ? { first: 2, last: 2 }
            : { first: 1, last: 1 },
      ]),
    );
  });

  it.each(CHUNKING_STRATEGIES)('%s: every chunk of a paged document knows its pages, in order', (strategy) => {
    const pages = Array.from({ length: 12 }, (_, p) =>
      [
        pageMarker(p + 1),
        `## Part ${p + 1}`,
        ...Array.from(
          { length: 6 },
          (_, k) => `Q: question ${p}-${k}?\n\nPage ${p + 1} paragraph ${k} says ${'words '.repeat(30)}`,
        ),
      ].join('\n\n'),
    );
    const chunks = chunkWithPlan(
      'doc',
      pages.join('\n\n'),
      plan(strategy, { childTokens: 120, overlapTokens: 10 }),
      LIMITS,
    );
    const kids = children(chunks);
    expect(kids.length).toBeGreaterThan(0);
    for (const child of kids) {
      const named = [...child.text.matchAll(/Page (\d+) paragraph/g)].map((m) => Number(m[1]));
      expect(child.pages).toBeDefined();
      for (const page of named) {
        expect(page).toBeGreaterThanOrEqual(child.pages?.first ?? Infinity);
        expect(page).toBeLessThanOrEqual(child.pages?.last ?? -Infinity);
      }
    }
  });

  it('qa: one child per question holding its whole answer, nested sections included, Q: lines too', () => {
    const chunks = chunkWithPlan('doc', FAQ, plan('qa'), LIMITS);
    expectWellFormed(chunks);
    const texts = children(chunks).map((c) => c.text);
    const reset = texts.filter((t) => t.includes('How do I reset my password?'));
    expect(reset).toHaveLength(1);
    expect(reset[0]).toContain('A mail with a link arrives within minutes.');
    const refused = texts.find((t) => t.includes('Why is my upload refused?'))!;
    expect(refused).toContain('FILE_TOO_LARGE');
    expect(refused).toContain('The free plan allows 10 MB per file.');
    const phone = texts.find((t) => t.includes('Who answers the phone?'))!;
    expect(phone).toContain('from 9 to 5');
    expect(phone).not.toContain('Is there a chat?');
    expect(children(chunks).find((c) => c.text.includes('on the help page'))!.sectionPath).toEqual([
      'Frequently asked questions',
      'Contact',
      'Is there a chat?',
    ]);
    // general cuts the nested "Limits per plan" away from its question.
    const general = children(chunkWithPlan('doc', FAQ, plan('general'), LIMITS)).map((c) => c.text);
    expect(general.find((t) => t.includes('Why is my upload refused?'))).not.toContain('10 MB per file');
  });

  it('table: row groups that each repeat the header, every row in exactly one child', () => {
    const chunks = chunkWithPlan('doc', SHEET, plan('table', { childTokens: 120, overlapTokens: 0 }), LIMITS);
    expectWellFormed(chunks);
    const groups = children(chunks);
    expect(groups.length).toBeGreaterThan(5);
    for (const group of groups) expect(group.text).toContain('| Item | Location | Quantity |\n| --- | --- | --- |');
    for (const row of TABLE_ROWS)
      expect(groups.filter((g) => g.text.includes(`${row}\n`) || g.text.endsWith(row))).toHaveLength(1);
    // general packs the table into 400-token children, many rows each.
    expect(children(chunkWithPlan('doc', SHEET, plan('general'), LIMITS)).length).toBeLessThan(groups.length);
  });

  it('table: parentTokens bounds the parents, each with the header', () => {
    const chunks = chunkWithPlan(
      'doc',
      SHEET,
      plan('table', { childTokens: 120, overlapTokens: 0, parentTokens: 600 }),
      LIMITS,
    );
    expectWellFormed(chunks);
    expect(parents(chunks).length).toBeGreaterThan(2);
    for (const parent of parents(chunks)) {
      expect(parent.text).toContain('| Item | Location | Quantity |');
      expect(parent.tokenCount).toBeLessThanOrEqual(600 + 20);
    }
  });

  it('page: one parent per marked page, named by the top-level heading it starts with; per top-level heading without markers', () => {
    const pdf = `${pageMarker(1)}\n\n# Form A\n\nName and address.\n\n${pageMarker(2)}\n\nSignature and date.\n\n${pageMarker(3)}\n\n## Notes\n\nKeep a copy.`;
    const chunks = chunkWithPlan('doc', pdf, plan('page'), LIMITS);
    expectWellFormed(chunks);
    expect(parents(chunks).map((p) => [p.sectionPath, p.text])).toEqual([
      [['Form A'], '# Form A\n\nName and address.'],
      [['Page 2'], 'Signature and date.'],
      [['Page 3'], '## Notes\n\nKeep a copy.'],
    ]);
    expect(children(chunks)[1]!.text).toBe('Page 2\n\nSignature and date.');
    const deck = '# Slide 1: Intro\n\nWelcome.\n\n## Agenda\n\nThree parts.\n\n# Slide 2: Results\n\nUp 5 %.';
    expect(parents(chunkWithPlan('doc', deck, plan('page'), LIMITS)).map((p) => p.sectionPath)).toEqual([
      ['Slide 1: Intro'],
      ['Slide 2: Results'],
    ]);
    // A deck as the PPTX parser writes it: each slide marked as a page.
    const marked = `${pageMarker(1)}\n\n# Slide 1: Intro\n\nWelcome.\n\n${pageMarker(2)}\n\n# Slide 2: Results\n\nUp 5 %.`;
    expect(parents(chunkWithPlan('doc', marked, plan('page'), LIMITS)).map((p) => [p.sectionPath, p.pages])).toEqual([
      [['Slide 1: Intro'], { first: 1, last: 1 }],
      [['Slide 2: Results'], { first: 2, last: 2 }],
    ]);
  });

  it('one: the whole document as one parent, children led by its first heading', () => {
    const note = `${pageMarker(1)}\n\n# Meeting note\n\nWe agreed on Tuesday.\n\n## Actions\n\nAlice writes the plan.`;
    const chunks = chunkWithPlan('doc', note, plan('one'), LIMITS);
    expectWellFormed(chunks);
    expect(parents(chunks)).toHaveLength(1);
    expect(parents(chunks)[0]!.text).toBe(
      '# Meeting note\n\nWe agreed on Tuesday.\n\n## Actions\n\nAlice writes the plan.',
    );
    expect(children(chunks)).toHaveLength(1);
    expect(children(chunks)[0]!.text.startsWith('Meeting note\n\n')).toBe(true);
  });

  it.each(CHUNKING_STRATEGIES)('%s: same input gives the same ids; the chunk cap fails FILE_TOO_LARGE', (strategy) => {
    const markdown = Array.from(
      { length: 60 },
      (_, i) =>
        `${pageMarker(i + 1)}\n\n# Slide ${i}: Q${i}?\n\n| k | v |\n| --- | --- |\n| a${i} | b |\n\nAnswer ${i}.`,
    ).join('\n\n');
    const first = chunkWithPlan('doc', markdown, plan(strategy), LIMITS);
    expect(chunkWithPlan('doc', markdown, plan(strategy), LIMITS).map((c) => c.chunkId)).toEqual(
      first.map((c) => c.chunkId),
    );
    expect(new Set(first.map((c) => c.chunkId)).size).toBe(first.length);
    expect(chunkWithPlan('other', markdown, plan(strategy), LIMITS)[0]!.chunkId).not.toBe(first[0]!.chunkId);
    const cap = strategy === 'one' ? 1 : Math.floor(first.length / 2);
    expect(() => chunkWithPlan('doc', markdown, plan(strategy), { maxChunks: cap })).toThrow(
      expect.objectContaining({ code: 'FILE_TOO_LARGE', permanent: true }),
    );
  });

  it('refuses parameters outside the contract as CHUNKING_FAILED', () => {
    for (const parameters of [
      { childTokens: 4 },
      { overlapTokens: 300 },
      { parentTokens: 100 },
      { childTokens: 10.5 },
    ]) {
      expect(() => chunkWithPlan('doc', FAQ, plan('general', parameters), LIMITS)).toThrow(
        expect.objectContaining({ code: 'CHUNKING_FAILED', permanent: true }),
      );
    }
  });
});
