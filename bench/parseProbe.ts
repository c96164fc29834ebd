import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { detectFileType } from '../parsers/detectFileType';
import { createCpuPool } from '../cpuPool/pool';
import { DEFAULT_PARSE_LIMITS } from '../parsers/parseLimits';

/**
 * One fresh process parsing one file the way the CLEANING activity does (type from the bytes,
 * then a CPU pool of one parse process), reporting that parse process's peak RSS (VmHWM: the
 * kernel's high-water mark, since the parse began) as one JSON line. Run by bench/parse.ts.
 */
function statusKb(field: string): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(match?.[1] ?? 0);
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: parseProbe <file>');
  const bytes = await readFile(file);
  const type = detectFileType(bytes.subarray(0, 8192), file);
  const baselineKb = statusKb('VmRSS');
  let peakBytes = 0;
  const pool = createCpuPool({
    threads: 1,
    limits: DEFAULT_PARSE_LIMITS,
    onParseMemory: (memory) => (peakBytes = memory.peakResidentBytes ?? 0),
  });
  const started = process.hrtime.bigint();
  let markdown: string;
  try {
    markdown = await pool.parse(file, type);
  } finally {
    await pool.close();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakKb = peakBytes / 1024;
  // Counted after the peak was read, so counting does not inflate it.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = type === 'pdf' ? await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise : null;
  process.stdout.write(
    `${JSON.stringify({ file, type, bytes: bytes.length, pages: pdf?.numPages ?? null, seconds, markdownChars: markdown.length, baselineRssMb: baselineKb / 1024, peakRssMb: peakKb / 1024 })}\n`,
  );
  await pdf?.destroy();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
