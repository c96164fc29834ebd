import fs from 'node:fs';
import path from 'node:path';
import { createCpuPool } from '../cpuPool/pool';
import type { SourceFileType } from '../parsers/detectFileType';
import { DEFAULT_PARSE_LIMITS } from '../parsers/parseLimits';
import { debianDocPath } from '../testkit/fixtures/debianDocs';
import { docxFixture, xlsxFixture } from '../testkit/fixtures/officeFixtures';
import { fixturePdf } from '../testkit/fixtures/pdfFixture';

/**
 * `npm run bench:parse-pool`: parse throughput of the warm CPU pool, the way CLEANING calls it
 * (`cpu.parse`), over a mixed corpus: the 311-page gnuplot manual, one-page PDFs, DOCX, XLSX,
 * HTML, text and markdown. One warm-up round (the pool's first documents), then the best of
 * BENCH_PARSE_POOL_ROUNDS rounds, each parsing the corpus with as many documents in flight as the
 * pool has workers. Run on two trees to compare pools; prints JSON and writes
 * bench-results/parse-pool.json.
 */
const ROUNDS = Number(process.env.BENCH_PARSE_POOL_ROUNDS ?? 3);
const WORKERS = Number(process.env.BENCH_PARSE_POOL_WORKERS ?? 2);
const SMALL_COPIES = Number(process.env.BENCH_PARSE_POOL_SMALL ?? 20);
const repoRoot = path.resolve(__dirname, '..');

function corpus(dir: string): { file: string; type: SourceFileType }[] {
  const write = (name: string, bytes: Buffer | string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };
  const onePage = write('one-page.pdf', fixturePdf([[{ text: 'Title', size: 18 }, { text: 'A page of text.' }]]));
  const docx = write(
    'report.docx',
    docxFixture(Array.from({ length: 200 }, (_, i) => ({ text: `Paragraph ${i} of an ordinary report.` }))),
  );
  const xlsx = write(
    'figures.xlsx',
    xlsxFixture([{ name: 'Figures', rows: Array.from({ length: 500 }, (_, i) => [`row ${i}`, i]) }]),
  );
  const samples = path.join(repoRoot, 'samples');
  const small: { file: string; type: SourceFileType }[] = [
    { file: onePage, type: 'pdf' },
    { file: docx, type: 'docx' },
    { file: xlsx, type: 'xlsx' },
    { file: path.join(samples, '文档处理指南.html'), type: 'html' },
    { file: path.join(samples, 'vector-search-notes.txt'), type: 'txt' },
    { file: path.join(samples, 'temporal-durable-execution.md'), type: 'md' },
  ];
  const large = debianDocPath('gnuplot-doc', 'usr/share/doc/gnuplot/gnuplot.pdf');
  return [{ file: large, type: 'pdf' }, ...Array.from({ length: SMALL_COPIES }, () => small).flat()];
}

async function main(): Promise<void> {
  const outDir = path.join(repoRoot, 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const docs = corpus(fs.mkdtempSync(path.join(outDir, 'parse-pool-')));
  const pool = createCpuPool({ threads: WORKERS, limits: DEFAULT_PARSE_LIMITS });
  const round = async (): Promise<number> => {
    const started = process.hrtime.bigint();
    await Promise.all(docs.map((doc) => pool.parse(doc.file, doc.type)));
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  try {
    const warmUpSeconds = await round();
    const seconds: number[] = [];
    for (let i = 0; i < ROUNDS; i++) seconds.push(await round());
    const best = Math.min(...seconds);
    const result = {
      workers: WORKERS,
      documents: docs.length,
      warmUpSeconds: round2(warmUpSeconds),
      roundSeconds: seconds.map(round2),
      bestSeconds: round2(best),
      documentsPerSecond: round2(docs.length / best),
    };
    fs.writeFileSync(path.join(outDir, 'parse-pool.json'), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await pool.close();
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
