import { localStagePlan } from '../../activities/stages/prepareTask';

describe('localStagePlan', () => {
  const limits = { maxSourceBytes: 1024, maxChunks: 500 };

  it('runs the early stages locally up to the source size limit, inclusive', () => {
    expect(localStagePlan(1024, limits)).toEqual({ beforeEmbedding: true, maxChunksAfterEmbedding: 500 });
    expect(localStagePlan(1025, limits).beforeEmbedding).toBe(false);
  });

  it('turns the early stages off with a zero limit, even for an empty source', () => {
    expect(localStagePlan(0, { maxSourceBytes: 0, maxChunks: 0 })).toEqual({
      beforeEmbedding: false,
      maxChunksAfterEmbedding: 0,
    });
  });

  it('keeps normal activities for a file that may be OCR\u2019d (a PDF or an image by name), however small', () => {
    for (const name of ['scan.pdf', 'page.PNG', 'photo.jpeg', 'fax.tif', 'shot.webp']) {
      expect(localStagePlan(100, limits, name).beforeEmbedding).toBe(false);
    }
    expect(localStagePlan(100, limits, 'notes.md').beforeEmbedding).toBe(true);
  });
});
