import fs from 'node:fs';
import { loadConfig } from '../config/config';
import { createCpuPool } from '../cpuPool/pool';
import { createAdapters } from '../composition/adapters';
import { plainDocument, type BenchDoc, type PlainOutcome } from './plainPipeline';
import { cpuSeconds, peakRssBytes, resetPeakRss } from './processStats';
import { runWindow, type Timed } from './window';

export interface PlainRunResult {
  elapsedMs: number;
  docs: Timed<PlainOutcome>[];
  peakRssBytes: number;
  cpuSeconds: number;
}

/**
 * Side (a) as a process of its own, started by bench/throughput.ts like a worker process, so
 * its memory and CPU are measured the same way: `plainLoop.ts <manifest.json> <result.json>`.
 */
async function main(): Promise<void> {
  const [manifestPath, resultPath] = process.argv.slice(2);
  if (!manifestPath || !resultPath) throw new Error('usage: plainLoop.ts <manifest.json> <result.json>');
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { docs: BenchDoc[]; lanes: number };
  const config = loadConfig();
  const adapters = createAdapters(config);
  const cpu = createCpuPool({ threads: config.worker.cpuThreads, limits: config.parsing });
  try {
    await adapters.ensureReady();
    resetPeakRss('self');
    const cpuBefore = cpuSeconds('self');
    const run = await runWindow(manifest.docs, manifest.lanes, (doc) => plainDocument(config, adapters, cpu, doc));
    const result: PlainRunResult = {
      elapsedMs: run.elapsedMs,
      docs: run.items,
      peakRssBytes: peakRssBytes('self'),
      cpuSeconds: cpuSeconds('self') - cpuBefore,
    };
    fs.writeFileSync(resultPath, JSON.stringify(result));
  } finally {
    await cpu.close();
    await adapters.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
