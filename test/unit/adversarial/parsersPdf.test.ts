import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pdfTinyPages } from '../../../bench/adversarialInputs';
import { stripPageMarkers } from '../../../chunker/chunkPages';

const withoutPageMarkers = (markdown: string): string => stripPageMarkers(markdown).text;
import { inTime } from './inTime';

const repoRoot = path.resolve(__dirname, '../../..');

/**
 * pdf.js is an ES module, which Jest's module system cannot load; a child process (through tsx)
 * runs convertFile itself and prints the markdown.
 */
const CONVERT = `
const { convertFile } = require(${JSON.stringify(path.join(repoRoot, 'parsers/convertFile.ts'))});
const { DEFAULT_PARSE_LIMITS } = require(${JSON.stringify(path.join(repoRoot, 'parsers/parseLimits.ts'))});
convertFile(process.argv[1], 'pdf', DEFAULT_PARSE_LIMITS).then((markdown) => process.stdout.write(markdown));
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-adversarial-pdf-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function convertPdf(bytes: Buffer): Promise<string> {
  const file = path.join(dir, 'hostile.pdf');
  await writeFile(file, bytes);
  const run = promisify(execFile);
  return inTime(
    async () =>
      (
        await run(process.execPath, ['--require', 'tsx/cjs', '-e', CONVERT, file], {
          cwd: repoRoot,
          maxBuffer: 64 * 1024 * 1024,
        })
      ).stdout,
  );
}

describe('PDF', () => {
  it('reads 2,000 one-line pages as one sentence continued across every page break', async () => {
    const markdown = await convertPdf(pdfTinyPages(2_000));
    // The page marker the parser writes for `page` chunking is not text.
    expect(withoutPageMarkers(markdown)).toBe(Array.from({ length: 2_000 }, (_, i) => `word${i} and`).join(' '));
  });
});
