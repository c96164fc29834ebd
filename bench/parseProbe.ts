import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { detectFileType } from '../parsers/detectFileType';
import { DEFAULT_PARSE_LIMITS } from '../parsers/parseLimits';
import { parseToMarkdown } from '../parsers/parseToMarkdown';

/**
 * One fresh process parsing one file the way the CLEANING activity does (type from the bytes,
 * then parseToMarkdown in a CPU pool of one thread), reporting its own peak RSS (VmHWM: the kernel's
 * high-water mark, every thread included) as one JSON line. Run by bench/parse.ts.
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
  const started = process.hrtime.bigint();
  const markdown = await parseToMarkdown(file, type, DEFAULT_PARSE_LIMITS);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const peakKb = statusKb('VmHWM');
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
