import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createCanvas } from '@napi-rs/canvas';
import { loadPpOcrEngine } from '../ocr/ocrEngine';
import { ppOcrV4Files } from '../ocr/ocrModels';
import type { RgbaImage } from '../ocr/rgbaImage';
import { openPdf } from '../parsers/pdf/openPdf';
import { renderPage } from '../parsers/pdf/renderPage';
import { debianDocPath } from '../testkit/fixtures/debianDocs';
import { tallyCer, type CerTally } from './ocrCer';
import { tesseractAvailable, tesseractPage } from './ocrTesseract';

/**
 * `npm run bench:ocr`: OCR quality and speed on real text PDFs, English and Chinese Debian
 * manuals. Pages are rendered with sluice's own renderer (pdf.js on Skia) at BENCH_OCR_DPI, read
 * by the chosen engine (PP-OCRv4 on onnxruntime, one thread) and by Tesseract 5 from Debian (one
 * thread), and compared with the page's own text layer (bench/ocrCer.ts). The detector's
 * settings were chosen on maint-guide ("tuning"); debmake-doc ("held-out") did not choose them,
 * and its figures are the ones that count. Pages/s per core is pages over the CPU seconds the
 * engine used, so a loaded machine slows the wall clock but not that figure. Writes
 * bench-results/ocr.json.
 */
const DPI = Number(process.env.BENCH_OCR_DPI ?? 150);
const PAGES_PER_DOC = Number(process.env.BENCH_OCR_PAGES ?? 6);
/** Pages with less text than this (a title page, a blank verso) say little about reading. */
const MIN_REFERENCE_CHARS = 300;

interface Doc {
  split: 'tuning' | 'held-out';
  language: 'en' | 'zh';
  pkg: string;
  file: string;
}

const DOCS: Doc[] = [
  { split: 'tuning', language: 'en', pkg: 'maint-guide', file: 'usr/share/doc/maint-guide/maint-guide.en.pdf' },
  {
    split: 'tuning',
    language: 'zh',
    pkg: 'maint-guide-zh-cn',
    file: 'usr/share/doc/maint-guide-zh-cn/maint-guide.zh-cn.pdf',
  },
  { split: 'held-out', language: 'en', pkg: 'debmake-doc', file: 'usr/share/doc/debmake-doc/debmake-doc.en.pdf' },
  { split: 'held-out', language: 'zh', pkg: 'debmake-doc', file: 'usr/share/doc/debmake-doc/debmake-doc.zh-cn.pdf' },
];

interface EngineTally extends CerTally {
  pages: number;
  cpuSeconds: number;
  wallSeconds: number;
}

const empty = (): EngineTally => ({ pages: 0, edits: 0, referenceChars: 0, cpuSeconds: 0, wallSeconds: 0 });

async function main(): Promise<void> {
  const outDir = path.resolve(__dirname, '..', 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-ocr-'));
  const engine = await loadPpOcrEngine(ppOcrV4Files());
  const withTesseract = tesseractAvailable();
  const rows: Record<string, { paddle: EngineTally; tesseract: EngineTally | null }> = {};
  const loadBefore = os.loadavg();
  for (const doc of DOCS) {
    const key = `${doc.split}/${doc.language}`;
    const row = (rows[key] ??= { paddle: empty(), tesseract: withTesseract ? empty() : null });
    const file = await fs.promises.open(debianDocPath(doc.pkg, doc.file), 'r');
    const pdf = await openPdf(file, (await file.stat()).size);
    try {
      for (const { number, reference } of await pickPages(pdf)) {
        const page = await pdf.getPage(number);
        const { image } = await renderPage(page, DPI, 40_000_000);
        page.cleanup();
        const cpu = process.cpuUsage();
        const started = process.hrtime.bigint();
        const read = await engine.recognize(image);
        add(row.paddle, reference, read.lines.map((line) => line.text).join('\n'), cpu, started);
        if (row.tesseract) {
          const png = path.join(tmp, `page-${number}.png`);
          fs.writeFileSync(png, encodePng(image));
          const wall = process.hrtime.bigint();
          const result = tesseractPage(png, doc.language === 'en' ? 'eng' : 'chi_sim');
          const cer = tallyCer(reference, result.text);
          row.tesseract.pages++;
          row.tesseract.edits += cer.edits;
          row.tesseract.referenceChars += cer.referenceChars;
          row.tesseract.cpuSeconds += result.cpuSeconds;
          row.tesseract.wallSeconds += Number(process.hrtime.bigint() - wall) / 1e9;
        }
      }
    } finally {
      await pdf.destroy();
      await file.close();
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  const results = Object.entries(rows).flatMap(([key, row]) =>
    (['paddle', 'tesseract'] as const).flatMap((name) => {
      const tally = row[name];
      if (!tally) return [];
      const [split, language] = key.split('/');
      return [
        {
          engine: name === 'paddle' ? 'PP-OCRv4 (onnxruntime)' : 'Tesseract 5 (Debian)',
          split,
          language,
          pages: tally.pages,
          cer: round(tally.edits / Math.max(1, tally.referenceChars)),
          pagesPerCoreSecond: round(tally.pages / Math.max(1e-9, tally.cpuSeconds)),
          pagesPerWallSecond: round(tally.pages / Math.max(1e-9, tally.wallSeconds)),
        },
      ];
    }),
  );
  const report = {
    dpi: DPI,
    pagesPerDoc: PAGES_PER_DOC,
    loadAverage: { before: loadBefore, after: os.loadavg() },
    results,
  };
  fs.writeFileSync(path.join(outDir, 'ocr.json'), `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

function add(tally: EngineTally, reference: string, text: string, cpu: NodeJS.CpuUsage, started: bigint): void {
  const used = process.cpuUsage(cpu);
  tally.wallSeconds += Number(process.hrtime.bigint() - started) / 1e9;
  tally.cpuSeconds += (used.user + used.system) / 1e6;
  const cer = tallyCer(reference, text);
  tally.pages++;
  tally.edits += cer.edits;
  tally.referenceChars += cer.referenceChars;
}

/** PAGES_PER_DOC pages spread over the document, each with enough text to judge a reading by. */
async function pickPages(pdf: PDFDocumentProxy): Promise<{ number: number; reference: string }[]> {
  const picked: { number: number; reference: string }[] = [];
  const step = Math.max(1, Math.floor(pdf.numPages / (PAGES_PER_DOC + 1)));
  for (let n = step; n <= pdf.numPages && picked.length < PAGES_PER_DOC; n += step) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    page.cleanup();
    const reference = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
    if (reference.replace(/\s/g, '').length >= MIN_REFERENCE_CHARS) picked.push({ number: n, reference });
  }
  return picked;
}

function encodePng(image: RgbaImage): Buffer {
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  const data = context.createImageData(image.width, image.height);
  data.data.set(image.data);
  context.putImageData(data, 0, 0);
  return canvas.toBuffer('image/png');
}

const round = (value: number): number => Math.round(value * 10_000) / 10_000;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
