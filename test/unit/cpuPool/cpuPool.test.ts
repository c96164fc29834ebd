import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS } from '../../../chunker/chunkMarkdown';
import { createCpuPool, type CpuPool } from '../../../cpuPool/pool';
import { convertFile } from '../../../parsers/convertFile';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { sparseVectorFromTokens } from '../../../sparse/sparseVector';
import { tokenize } from '../../../tokenizer/tokenize';

const SAMPLES = path.join(__dirname, '../../../samples');
const HTML = path.join(SAMPLES, '文档处理指南.html');

describe('the CPU pool gives what the functions give when called directly', () => {
  let pool: CpuPool;
  beforeAll(() => {
    pool = createCpuPool({ threads: 2, limits: DEFAULT_PARSE_LIMITS });
  });
  afterAll(() => pool.close());

  it('parses, chunks, tokenizes and weights the samples identically', async () => {
    for (const [file, type] of [
      [HTML, 'html'],
      [path.join(SAMPLES, 'vector-search-notes.txt'), 'txt'],
      [path.join(SAMPLES, 'temporal-durable-execution.md'), 'md'],
    ] as const) {
      const markdown = await pool.parse(file, type);
      expect(markdown).toBe(await convertFile(file, type, DEFAULT_PARSE_LIMITS));

      const drafts = await pool.chunk('doc-1', markdown, DEFAULT_CHUNKER_OPTIONS);
      expect(drafts.length).toBeGreaterThan(1);
      expect(drafts).toEqual(chunkMarkdown('doc-1', markdown, DEFAULT_CHUNKER_OPTIONS));

      const plan = await pool.tokenize(drafts.map((d) => ({ chunk_id: d.chunkId, text: d.text })));
      expect(plan).toEqual(drafts.map((d) => [d.chunkId, tokenize(d.text)]));

      const vectors = await pool.sparse(plan.map(([, terms]) => terms));
      expect(vectors).toEqual(plan.map(([, terms]) => sparseVectorFromTokens(terms)));
    }
  });

  it("brings a parser's classified failure back as it is", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sluice-cpu-'));
    try {
      const blank = path.join(dir, 'blank.txt');
      await writeFile(blank, '  \n\t\n');
      await expect(pool.parse(blank, 'txt')).rejects.toMatchObject({
        name: 'SluiceError',
        code: 'EMPTY_DOCUMENT',
        permanent: true,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("brings the chunker's classified refusal back as it is", async () => {
    await expect(pool.chunk('doc-1', '# A\n\ntext', { maxTokens: 2, overlapTokens: 0 })).rejects.toMatchObject({
      name: 'SluiceError',
      code: 'CHUNKING_FAILED',
      permanent: true,
      message: expect.stringContaining('invalid chunker options'),
    });
  });
});

/**
 * The inputs grow the heap in many small allocations, as real documents do. (Node stops a thread
 * at its cap with 16 MB of slack; one single allocation larger than that, made right at the cap,
 * aborts the whole process instead: a limit of worker threads, see docs/documents.md.)
 */
describe('the CPU pool under its heap cap', () => {
  let dir: string;
  let pool: CpuPool;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sluice-cpu-heap-'));
    pool = createCpuPool({ threads: 1, limits: { ...DEFAULT_PARSE_LIMITS, maxHeapMb: 64 } });
  });
  afterAll(async () => {
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('fails a document too big for the parse heap with FILE_TOO_LARGE, then parses the next one', async () => {
    const huge = path.join(dir, 'huge.txt');
    // 36 MB of short lines: the decoded text and the paragraphs built from it outgrow 64 MB.
    await writeFile(huge, 'A plain sentence of ordinary words.\n'.repeat(1_000_000));
    await expect(pool.parse(huge, 'txt')).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
      permanent: true,
      message: expect.stringContaining('64 MB heap'),
    });
    await expect(pool.parse(HTML, 'html')).resolves.toContain('# 文档处理指南');
  });

  it('fails markdown too big for the chunking heap with CHUNKING_FAILED, then chunks the next one', async () => {
    const markdown = await readFile(path.join(SAMPLES, 'temporal-durable-execution.md'), 'utf8');
    // 300,000 small sections (8 MB): their parent and child drafts outgrow 64 MB.
    const sections = Array.from({ length: 300_000 }, (_, i) => `# Heading ${i}\n\nword${i} text\n`).join('\n');
    const failure = pool.chunk('doc-huge', sections, DEFAULT_CHUNKER_OPTIONS);
    await expect(failure).rejects.toMatchObject({
      code: 'CHUNKING_FAILED',
      permanent: true,
      message: expect.stringContaining('64 MB heap'),
    });
    await expect(pool.chunk('doc-ok', markdown, DEFAULT_CHUNKER_OPTIONS)).resolves.toEqual(
      chunkMarkdown('doc-ok', markdown, DEFAULT_CHUNKER_OPTIONS),
    );
  });
});
