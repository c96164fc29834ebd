import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { convertFile } from '../../../parsers/convertFile';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';

jest.mock('../../../parsers/htmlToMarkdown', () => ({
  htmlToMarkdown: () => {
    throw new RangeError('Maximum call stack size exceeded');
  },
}));

// convertFile is the in-thread half of parseToMarkdown: jest.mock cannot reach the parse thread.
describe('convertFile when the parsing library throws', () => {
  it('classifies the failure as a permanent PARSE_ENGINE_FAILED carrying the message', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sluice-engine-'));
    try {
      const filePath = path.join(dir, 'deep.html');
      await writeFile(filePath, '<html><body><p>deeply nested</p></body></html>');
      await expect(convertFile(filePath, 'html', DEFAULT_PARSE_LIMITS)).rejects.toMatchObject({
        name: 'SluiceError',
        code: 'PARSE_ENGINE_FAILED',
        permanent: true,
        message: expect.stringContaining('Maximum call stack size exceeded'),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
