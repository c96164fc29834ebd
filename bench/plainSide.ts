import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { STAGES, type Stage } from '../contracts/stages';
import type { PlainRunResult } from './plainLoop';
import type { BenchDoc } from './plainPipeline';
import type { BenchSide, RoundResult, SideTotals } from './side';

const ROOT = path.resolve(__dirname, '..');

/**
 * Side (a): each round is a fresh plainLoop.ts process (the loop itself is timed inside it, not
 * the process start), running `lanes` documents at once.
 */
export function plainSide(options: {
  env: Record<string, string>;
  lanes: number;
  workDir: string;
  nodeArgs: string[];
  cpus?: string;
}): BenchSide {
  const stageMsTotal = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  let peakRssBytes = 0;
  let cpuSeconds = 0;
  let round = 0;
  return {
    label: options.cpus ? `a: plain loop, pinned to cpu ${options.cpus}` : 'a: plain loop',
    workerProcesses: 1,
    // The process has exited, and an exiting backend publishes its counts at once.
    settleMs: 1500,
    async runRound(docs: BenchDoc[]): Promise<RoundResult> {
      fs.mkdirSync(options.workDir, { recursive: true });
      const manifest = path.join(options.workDir, `plain-manifest-${round}.json`);
      const resultFile = path.join(options.workDir, `plain-result-${round}.json`);
      round++;
      fs.writeFileSync(manifest, JSON.stringify({ docs, lanes: options.lanes }));
      const command = [
        process.execPath,
        ...options.nodeArgs,
        '--import',
        'tsx',
        path.join(__dirname, 'plainLoop.ts'),
        manifest,
        resultFile,
      ];
      // Pinned from its first instruction: taskset execs node in place, threads inherit the list.
      const [file, ...args] = options.cpus ? ['taskset', '-c', options.cpus, ...command] : command;
      const child = spawn(file as string, args, {
        cwd: ROOT,
        env: { ...process.env, ...options.env },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      if (code !== 0) throw new Error(`plain loop exited with ${code}`);
      const run = JSON.parse(fs.readFileSync(resultFile, 'utf8')) as PlainRunResult;
      peakRssBytes = Math.max(peakRssBytes, run.peakRssBytes);
      cpuSeconds += run.cpuSeconds;
      for (const d of run.docs) for (const stage of STAGES) stageMsTotal[stage] += d.result.stageMs[stage];
      return {
        elapsedMs: run.elapsedMs,
        docs: run.docs.map((d) => ({ ms: d.ms, chunks: d.result.chunks, error: d.result.error })),
      };
    },
    async finish(): Promise<SideTotals> {
      return { processes: [{ peakRssBytes, cpuSeconds }], stageMsTotal };
    },
  };
}
