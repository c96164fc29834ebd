import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS } from '../../../chunker/chunkMarkdown';

const sections = (n: number): string =>
  Array.from({ length: n }, (_, i) => `# Heading ${i}\n\nThe body of section ${i}, long enough to stand alone.\n`).join(
    '\n',
  );

describe('chunks per document (SLUICE_MAX_CHUNKS_PER_DOCUMENT)', () => {
  it('refuses a document past the cap as FILE_TOO_LARGE, and chunks one within it as without a cap', () => {
    const markdown = sections(40);
    const capped = chunkMarkdown('doc-1', markdown, { ...DEFAULT_CHUNKER_OPTIONS, maxChunks: 80 });
    expect(capped).toEqual(chunkMarkdown('doc-1', markdown, DEFAULT_CHUNKER_OPTIONS));
    expect(capped).toHaveLength(80);
    expect(() => chunkMarkdown('doc-1', sections(41), { ...DEFAULT_CHUNKER_OPTIONS, maxChunks: 80 })).toThrow(
      expect.objectContaining({
        code: 'FILE_TOO_LARGE',
        permanent: true,
        message: expect.stringContaining('80 chunks'),
      }),
    );
  });
});
