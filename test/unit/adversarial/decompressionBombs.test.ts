import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCpuPool, type CpuPool } from '../../../cpuPool/pool';
import type { TaskMemory } from '../../../cpuPool/processPool';
import type { SourceFileType } from '../../../parsers/detectFileType';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from '../../../parsers/parseLimits';
import {
  docxNestedArchiveBomb,
  pdfStreamBomb,
  pngPixelBomb,
  xlsxSharedStringBomb,
} from '../../../testkit/fixtures/bombFixtures';
import { docxFixture, xlsxFixture } from '../../../testkit/fixtures/officeFixtures';

/**
 * Decompression bombs of every kind, through the CPU pool as CLEANING runs them: each ends
 * FILE_TOO_LARGE, and the parse process's peak resident memory, as the kernel counted it
 * (VmHWM), stays within the memory limit plus the stated margin (docs/document-memory.md).
 */
const MB = 1024 * 1024;
const LIMITS: ParseLimits = { ...DEFAULT_PARSE_LIMITS, maxHeapMb: 256, maxMemoryMb: 512 };
const MARGIN_BYTES = 64 * MB;

let dir: string;
let pool: CpuPool;
let memory: TaskMemory[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-bombs-'));
  pool = createCpuPool({ threads: 1, limits: LIMITS, onParseMemory: (m) => memory.push(m) });
});
afterAll(async () => {
  await pool.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  memory = [];
});

async function parse(bytes: Buffer, type: SourceFileType): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${type}`);
  await writeFile(file, bytes);
  return pool.parse(file, type);
}

function expectPeakWithinLimit(): void {
  expect(memory).toHaveLength(1);
  expect(memory[0]!.peakResidentBytes).not.toBeNull();
  expect(memory[0]!.peakResidentBytes).toBeLessThanOrEqual(LIMITS.maxMemoryMb * MB + MARGIN_BYTES);
}

it('refuses a 600 KB PDF whose content stream inflates to 600 MB at its decode budget, growing under 300 MB', async () => {
  const bomb = await pdfStreamBomb(600);
  expect(bomb.length).toBeLessThan(1 * MB);
  await expect(parse(bomb, 'pdf')).rejects.toMatchObject({
    code: 'FILE_TOO_LARGE',
    permanent: true,
    message: expect.stringContaining('streams decode to more than 64 MB'),
  });
  // Refused by the budget, long before the process's memory limit had to kill it.
  expect(memory[0]).toMatchObject({ killedAtLimit: false });
  expectPeakWithinLimit();
  const { peakResidentBytes, startResidentBytes } = memory[0]!;
  expect(startResidentBytes).not.toBeNull();
  expect(peakResidentBytes! - startResidentBytes!).toBeLessThan(300 * MB);
});

it("parses a PDF whose streams stay within the budget: the bomb's own shape at 20 MB", async () => {
  const markdown = await parse(await pdfStreamBomb(20), 'pdf');
  expect(markdown).toContain('A page of bait');
});

it('refuses a 194 KB PNG declaring 40000 × 40000 pixels from its header, before decoding a pixel', async () => {
  const bomb = await pngPixelBomb(40_000, 40_000);
  expect(bomb.length).toBeLessThan(256 * 1024);
  await expect(parse(bomb, 'png')).rejects.toMatchObject({
    code: 'FILE_TOO_LARGE',
    message: expect.stringContaining('40000 × 40000 pixels'),
  });
  expect(memory[0]).toMatchObject({ killedAtLimit: false });
  const { peakResidentBytes, startResidentBytes } = memory[0]!;
  expect(peakResidentBytes! - startResidentBytes!).toBeLessThan(64 * MB);
});

it('stops one shared string referenced by 20,000 cells at the markdown cap, long before the memory limit', async () => {
  const bomb = xlsxSharedStringBomb(10, 20_000);
  await expect(parse(bomb, 'xlsx')).rejects.toMatchObject({
    code: 'FILE_TOO_LARGE',
    message: expect.stringContaining('bytes of markdown'),
  });
  expect(memory[0]).toMatchObject({ killedAtLimit: false });
  expectPeakWithinLimit();
});

it('refuses a DOCX embedding archives of archives that declare 1 GB together, without inflating them', async () => {
  await expect(parse(docxNestedArchiveBomb(2, 10, 100), 'docx')).rejects.toMatchObject({
    code: 'FILE_TOO_LARGE',
    message: expect.stringContaining('across its embedded archives'),
  });
  expectPeakWithinLimit();
});

it('refuses archives nested deeper than a document can need, yet parses a DOCX with an embedded workbook', async () => {
  await expect(parse(docxNestedArchiveBomb(4, 2, 1), 'docx')).rejects.toMatchObject({
    code: 'FILE_TOO_LARGE',
    message: expect.stringContaining('deeper than'),
  });
  const workbook = xlsxFixture([{ name: 'Figures', rows: [['quarter', 'sales']] }]);
  const docx = docxFixture(
    [{ heading: 1, text: 'Report' }, { text: 'See the embedded figures.' }],
    [{ name: 'word/embeddings/Microsoft_Excel_Worksheet.xlsx', data: workbook }],
  );
  // The pool serves documents after the bombs.
  await expect(parse(docx, 'docx')).resolves.toContain('See the embedded figures.');
  await expect(parse(Buffer.from('# Fine\n\nAn ordinary note.\n'), 'md')).resolves.toContain('An ordinary note.');
});
