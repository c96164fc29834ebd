import path from 'node:path';
import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS } from '../../../chunker/chunkMarkdown';
import type { ChunkDraft } from '../../../contracts/chunk';
import { countTokens } from '../../../tokenizer/countTokens';
import {
  childrenOf,
  overBudget,
  parentsOf,
  saneChildCount,
  sectionsUncovered,
} from '../../../testkit/fixtures/chunkChecks';
import { callOffThread, stopOffThreadCalls } from '../../../testkit/harness/offThread';

/**
 * Text that made the chunker quadratic (minutes on these sizes) or overflow the stack. The
 * quadratic cases run on a worker thread, so Jest's timeout can fail them; each test checks the
 * chunks, never the time.
 */
const CHUNK_MARKDOWN = path.join(__dirname, '../../../chunker/chunkMarkdown.ts');
const { maxTokens, overlapTokens } = DEFAULT_CHUNKER_OPTIONS;
const SPACES = ' '.repeat(500_000);

afterEach(stopOffThreadCalls);

function chunkOffThread(markdown: string): Promise<ChunkDraft[]> {
  return callOffThread<ChunkDraft[]>(CHUNK_MARKDOWN, 'chunkMarkdown', 'doc', markdown, DEFAULT_CHUNKER_OPTIONS);
}

/** The guarantees of any chunking, for a document of one section. */
function expectSoundChunks(chunks: ChunkDraft[], body: string): void {
  expect(overBudget(chunks, maxTokens)).toEqual([]);
  expect(sectionsUncovered(chunks)).toEqual(parentsOf(chunks).map(() => null));
  expect(childrenOf(chunks).length).toBeLessThanOrEqual(saneChildCount(countTokens(body), maxTokens, overlapTokens));
}

describe('chunkMarkdown on hostile text', () => {
  it('reads a heading whose title runs on after 500,000 spaces', async () => {
    const chunks = await chunkOffThread(`# a${SPACES}#x\nbody`);
    expect(chunks.map((chunk) => [chunk.kind, chunk.sectionPath, chunk.text])).toEqual([
      ['parent', ['a #x'], `# a${SPACES}#x\n\nbody`],
      ['child', ['a #x'], 'a #x\n\nbody'],
    ]);
  });

  it('keeps #s followed by text in a title of 500,000 spaces and drops its closing #s', async () => {
    const chunks = await chunkOffThread(`## Title${SPACES}## and more${SPACES}###\nbody`);
    expect(chunks.map((chunk) => chunk.sectionPath)).toEqual([['Title ## and more'], ['Title ## and more']]);
  });

  it('cuts a run of 500,000 sentence stops within the budget', async () => {
    const dots = '.'.repeat(500_000);
    const chunks = await chunkOffThread(dots);
    expect(parentsOf(chunks).map((parent) => parent.text)).toEqual([dots]);
    expectSoundChunks(chunks, dots);
  });

  it('cuts a line of 500,000 backticks that ends in a line separator, as text', async () => {
    const line = `${'`'.repeat(500_000)}\u2028after`;
    const chunks = await chunkOffThread(line);
    expect(parentsOf(chunks).map((parent) => parent.text)).toEqual([line]);
    // A fenced part would have had its fence repeated: every child is a plain slice.
    expect(childrenOf(chunks).every((child) => line.includes(child.text))).toBe(true);
    expectSoundChunks(chunks, line);
  });

  // Stack overflows fail at once on this thread (a worker's stack is larger), so no worker here.
  it('chunks 150,000 lines without a blank line', () => {
    const text = Array.from({ length: 150_000 }, (_, i) => `line ${i} of one long paragraph`).join('\n');
    const chunks = chunkMarkdown('doc', text, DEFAULT_CHUNKER_OPTIONS);
    expect(parentsOf(chunks).map((parent) => parent.text)).toEqual([text]);
    expectSoundChunks(chunks, text);
    expect(childrenOf(chunks).at(-1)?.text.endsWith('line 149999 of one long paragraph')).toBe(true);
  });

  it('packs a table cell of 200,000 sentences into children that repeat the header', () => {
    const header = '| key | value |\n| --- | --- |';
    const cell = 'Fact. '.repeat(200_000).trim();
    const chunks = chunkMarkdown('doc', `${header}\n| only | ${cell} |`, DEFAULT_CHUNKER_OPTIONS);
    const kids = childrenOf(chunks);
    expect(overBudget(chunks, maxTokens)).toEqual([]);
    expect(kids.every((child) => child.text.startsWith(`${header}\n`))).toBe(true);
    expect(kids.length).toBeLessThanOrEqual(saneChildCount(countTokens(cell), maxTokens - countTokens(header), 0));
    const facts = kids.reduce((sum, child) => sum + (child.text.match(/Fact\./g)?.length ?? 0), 0);
    expect(facts).toBe(200_000);
  });

  it('packs a code line of 200,000 statements into fenced children', () => {
    const line = 'x = 1; '.repeat(200_000).trim();
    const chunks = chunkMarkdown('doc', `\`\`\`js\n${line}\n\`\`\``, DEFAULT_CHUNKER_OPTIONS);
    const kids = childrenOf(chunks);
    expect(overBudget(chunks, maxTokens)).toEqual([]);
    expect(kids.every((child) => child.text.startsWith('```js\n') && child.text.endsWith('\n```'))).toBe(true);
    expect(kids.length).toBeLessThanOrEqual(saneChildCount(countTokens(line), maxTokens, 0));
    expect(kids.map((child) => child.text.slice(6, -4)).join(' ')).toBe(line);
  });
});
