import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { pdfToMarkdown } from '../parsers/pdf/pdfToMarkdown';
import { PDF_BENCH_CACHE } from './pdfStructureCorpus';

/**
 * The parsers compared, each run over all the PDFs in one go: sluice's pdfToMarkdown in this
 * process; in one child process each, so that none is charged its start-up per file, pdf-parse
 * (what LangChain.js's PDFLoader reads PDFs with; plain text, pdfStructurePdfParse.ts) and the
 * Python peers pymupdf4llm and pdfplumber (pdfStructurePeers.py). Each file's time is its parse alone, measured where it runs.
 */
export const SIDES = ['sluice', 'pdf-parse', 'pymupdf4llm', 'pdfplumber'] as const;
export type Side = (typeof SIDES)[number];

/** The venv scripts/pdf-structure-deps.sh builds. */
const PYTHON = path.join(PDF_BENCH_CACHE, 'venv', 'bin', 'python');

export interface Parsed {
  seconds: number;
  /** CPU time of the parsing process over the parse: what a loaded machine does not inflate. */
  cpuSeconds: number;
  markdown: string;
}

async function timed(parse: () => Promise<string>): Promise<Parsed> {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  let markdown = '';
  try {
    markdown = await parse();
  } catch (error) {
    console.error(`parse failed: ${(error as Error).message.slice(0, 200)}`);
  }
  const cpu = process.cpuUsage(cpuStarted);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, markdown };
}

async function inProcess(pdfPaths: string[], parse: (pdfPath: string) => Promise<string>): Promise<Parsed[]> {
  const parsed: Parsed[] = [];
  for (const pdfPath of pdfPaths) parsed.push(await timed(() => parse(pdfPath)));
  return parsed;
}

/** A parser in a child process: paths on its stdin, one JSON line per file on its stdout. */
async function child(name: string, command: string, args: string[], pdfPaths: string[]): Promise<Parsed[]> {
  const peer = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => peer.on('close', resolve));
  peer.stdin.end(pdfPaths.map((pdfPath) => `${pdfPath}\n`).join(''));
  const byPath = new Map<string, Parsed>();
  for await (const line of readline.createInterface({ input: peer.stdout })) {
    const { path: pdfPath, ...parsed } = JSON.parse(line) as Parsed & { path: string };
    byPath.set(pdfPath, parsed);
  }
  const code = await exited;
  if (code !== 0) throw new Error(`${name} exited with ${code}`);
  return pdfPaths.map((pdfPath) => byPath.get(pdfPath) ?? { seconds: 0, cpuSeconds: 0, markdown: '' });
}

export function runSide(side: Side, pdfPaths: string[]): Promise<Parsed[]> {
  switch (side) {
    case 'sluice':
      return inProcess(pdfPaths, (pdfPath) => pdfToMarkdown(pdfPath));
    case 'pdf-parse':
      return child(
        side,
        process.execPath,
        ['--import', 'tsx', path.join(__dirname, 'pdfStructurePdfParse.ts')],
        pdfPaths,
      );
    case 'pymupdf4llm':
    case 'pdfplumber':
      return child(side, PYTHON, [path.join(__dirname, 'pdfStructurePeers.py'), side], pdfPaths);
  }
}

/** BENCH_PDF_SIDES=sluice,pdf-parse,... (default all). */
export function sidesFromEnv(value = process.env.BENCH_PDF_SIDES): Side[] {
  if (!value) return [...SIDES];
  return value.split(',').map((name) => {
    if (!(SIDES as readonly string[]).includes(name)) throw new Error(`unknown side ${name}`);
    return name as Side;
  });
}
