import fs from 'node:fs';
import readline from 'node:readline';
import { PDFParse } from 'pdf-parse';

/**
 * The pdf-parse side of `npm run bench:pdf-structure`, in a process of its own: pdf-parse brings
 * its own pdf.js, whose API refuses the worker sluice's pdf.js installs in the process. Same
 * protocol as pdfStructurePeers.py: PDF paths on stdin, one JSON line per file on stdout, each
 * file timed here (wall clock and the process's CPU time).
 */
async function main(): Promise<void> {
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const pdfPath = line.trim();
    if (pdfPath === '') continue;
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    let markdown = '';
    const parser = new PDFParse({ data: fs.readFileSync(pdfPath) });
    try {
      markdown = (await parser.getText()).text;
    } catch (error) {
      console.error(`pdf-parse: ${pdfPath}: ${(error as Error).message}`);
    } finally {
      await parser.destroy();
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStarted);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    process.stdout.write(`${JSON.stringify({ path: pdfPath, seconds, cpuSeconds, markdown })}\n`);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
