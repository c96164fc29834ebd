import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cpuSeconds, peakRssBytes, resetPeakRss } from './processStats';

const ROOT = path.resolve(__dirname, '..');

export interface WorkerProcess {
  child: ChildProcess;
  /** Peak RSS and CPU so far; call before stop(). */
  stats(): { peakRssBytes: number; cpuSeconds: number };
  stop(): Promise<void>;
}

/**
 * The production worker entry (worker/main.ts) as a process of its own, as it runs in
 * deployment. Node runs it with tsx registered in-process (not the tsx CLI, which would put a
 * wrapper process in between and hide the worker's memory). Resolves once it is polling.
 */
export async function startWorkerProcess(
  env: Record<string, string>,
  logFile: string,
  nodeArgs: string[] = [],
): Promise<WorkerProcess> {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(ROOT, 'worker', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.pipe(log);
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (data: Buffer) => {
      log.write(data);
      seen += data.toString('utf8');
      if (seen.includes('sluice worker polling')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before polling; see ${logFile}`)));
  });
  resetPeakRss(child.pid as number);
  const cpuAtStart = cpuSeconds(child.pid as number);
  return {
    child,
    stats: () => ({
      peakRssBytes: peakRssBytes(child.pid as number),
      cpuSeconds: cpuSeconds(child.pid as number) - cpuAtStart,
    }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // SIGTERM: Worker.run() drains and the process closes its pool, which flushes its pg stats.
      child.kill('SIGTERM');
      await exited;
      log.end();
    },
  };
}
