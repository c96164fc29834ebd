import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCpuPool } from '../cpuPool/pool';
import { DEFAULT_PARSE_LIMITS } from '../parsers/parseLimits';
import { scannedPageJpeg, scannedPdf } from '../testkit/fixtures/scanFixtures';

/**
 * `npm run bench:ocr-long`: a long scanned PDF (BENCH_OCR_LONG_PAGES image-only pages, 300 by
 * default) through the CPU pool as CLEANING parses it, under the default limits, beside a short one
 * (BENCH_OCR_SHORT_PAGES, 10): OCR holds one page's bitmap at a time, so the parse process's peak
 * resident memory (the kernel's VmHWM) must not grow with the page count. Prints JSON and writes
 * bench-results/ocr-long.json.
 */
const LONG = Number(process.env.BENCH_OCR_LONG_PAGES ?? 300);
const SHORT = Number(process.env.BENCH_OCR_SHORT_PAGES ?? 10);

async function main(): Promise<void> {
  const outDir = path.resolve(__dirname, '..', 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-ocr-long-'));
  const scan = await scannedPageJpeg();
  const peaks: number[] = [];
  const pool = createCpuPool({
    threads: 1,
    limits: DEFAULT_PARSE_LIMITS,
    onParseMemory: (memory) => peaks.push(memory.peakResidentBytes ?? Number.NaN),
  });
  const runs = [];
  try {
    for (const pages of [SHORT, LONG]) {
      const file = path.join(tmp, `scan-${pages}.pdf`);
      fs.writeFileSync(file, scannedPdf(pages, scan));
      const started = process.hrtime.bigint();
      const parsed = await pool.parseDocument(file, 'pdf');
      runs.push({
        pages,
        ocrPages: parsed.ocrPages.length,
        markdownBytes: Buffer.byteLength(parsed.markdown),
        seconds: Math.round(Number(process.hrtime.bigint() - started) / 1e7) / 100,
        peakResidentMb: Math.round((peaks.at(-1) ?? Number.NaN) / 1024 / 1024),
        loadAverage: os.loadavg(),
      });
    }
  } finally {
    await pool.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const report = { memoryLimitMb: DEFAULT_PARSE_LIMITS.maxMemoryMb, runs };
  fs.writeFileSync(path.join(outDir, 'ocr-long.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
