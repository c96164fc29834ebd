import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS } from '../../../chunker/chunkMarkdown';

const sections = (n: number): string =>
  Array.from({ length: n }, (_, i) => `# Heading ${i}\n\nThe body of section ${i}, long enough to stand alone.\n`).join(
    '\n',
  );

describe('chunks per document (SLUICE_MAX_CHUNKS_PER_DOCUMENT)', () => {
  it('refuses a document past the cap as FILE_TOO_LARGE, stopping at the section that crosses it', () => {
    expect(() => chunkMarkdown('doc-1', sections(1000), { ...DEFAULT_CHUNKER_OPTIONS, maxChunks: 100 })).toThrow(
      expect.objectContaining({
        code: 'FILE_TOO_LARGE',
        permanent: true,
        message: expect.stringContaining('100 chunks'),
      }),
    );
  });

  it('gives the same chunks as without a cap when the document fits', () => {
    const markdown = sections(40);
    const capped = chunkMarkdown('doc-1', markdown, { ...DEFAULT_CHUNKER_OPTIONS, maxChunks: 80 });
    expect(capped).toEqual(chunkMarkdown('doc-1', markdown, DEFAULT_CHUNKER_OPTIONS));
    expect(capped).toHaveLength(80);
  });
});
