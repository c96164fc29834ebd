import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { convertFile } from '../../../parsers/convertFile';
import { DEFAULT_PARSE_LIMITS, MARKDOWN_FLOOR_BYTES, markdownLimit } from '../../../parsers/parseLimits';

const MB = 1024 * 1024;

describe('the markdown a document may produce', () => {
  it('is a multiple of its source size, at least the floor, at most the ceiling', () => {
    const limits = { maxBytes: 64 * MB, perSourceByte: 32 };
    expect(markdownLimit(limits, 1000)).toBe(MARKDOWN_FLOOR_BYTES);
    expect(markdownLimit(limits, 1 * MB)).toBe(32 * MB);
    expect(markdownLimit(limits, 10 * MB)).toBe(64 * MB);
    // A ceiling set below the floor wins: the operator's absolute cap holds.
    expect(markdownLimit({ maxBytes: 1000, perSourceByte: 32 }, 10)).toBe(1000);
  });

  it('fails a conversion past the cap as FILE_TOO_LARGE, whatever the format', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sluice-markdown-cap-'));
    try {
      const file = path.join(dir, 'notes.md');
      await writeFile(file, '# Notes\n\n' + 'A line of notes.\n'.repeat(1000));
      const limits = { ...DEFAULT_PARSE_LIMITS, markdown: { maxBytes: 4096, perSourceByte: 32 } };
      await expect(convertFile(file, 'md', limits)).rejects.toMatchObject({
        code: 'FILE_TOO_LARGE',
        message: expect.stringContaining('4096 bytes of markdown'),
      });
      await expect(convertFile(file, 'md', DEFAULT_PARSE_LIMITS)).resolves.toContain('A line of notes.');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
