import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../config/config';
import { createCpuPool } from '../../cpuPool/pool';
import { CORPUS, evalDocsDir, parseDoc } from './corpus';

/**
 * `tsx eval/retrieval/dumpMarkdown.ts <dir> [doc id…]`: writes each eval document's stored
 * markdown to <dir>/<id>.md, the text questions are written from and labels are quoted from.
 */
async function main(): Promise<void> {
  const [outDir, ...only] = process.argv.slice(2);
  if (!outDir) throw new Error('usage: dumpMarkdown.ts <dir> [doc id…]');
  const config = loadConfig();
  const cpu = createCpuPool({ threads: config.worker.cpuThreads, limits: config.parsing });
  mkdirSync(outDir, { recursive: true });
  try {
    for (const doc of CORPUS.filter((d) => only.length === 0 || only.includes(d.id))) {
      const parsed = await parseDoc(cpu, doc, config.chunking, 'recommended', evalDocsDir(config.dataDir));
      writeFileSync(path.join(outDir, `${doc.id}.md`), parsed.markdown);
      console.log(
        `${doc.id}: ${parsed.markdown.length} chars, ${parsed.children.length} children (${parsed.plan.strategy})`,
      );
    }
  } finally {
    await cpu.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
