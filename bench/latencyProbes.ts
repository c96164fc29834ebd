import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { ingestWorkflowId } from '../contracts/ingest';

export const ROOT = path.resolve(__dirname, '..');

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** Wall time of one process from spawn to exit, in ms; a non-zero exit fails the bench (a fast failure is no result). */
export function timeProcess(command: string, args: string[], env: NodeJS.ProcessEnv): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

/** Median of `runs` timed runs after one untimed one (which fills the OS file cache). */
export function medianProcess(runs: number, command: string, args: string[], env: NodeJS.ProcessEnv): number {
  timeProcess(command, args, env);
  return median(Array.from({ length: runs }, () => timeProcess(command, args, env)));
}

function timestampMs(ts: temporal.api.history.v1.IHistoryEvent['eventTime']): number {
  return Number(ts?.seconds?.toString() ?? 0) * 1000 + (ts?.nanos ?? 0) / 1e6;
}

/** Workflow start to completion as the Temporal server recorded them: no client polling in it. */
export async function historySpanMs(client: Client, documentId: string): Promise<number> {
  const { events } = await client.workflow.getHandle(ingestWorkflowId(documentId)).fetchHistory();
  const first = events?.[0];
  const last = events?.[events.length - 1];
  if (!first || !last) throw new Error(`no history for ${documentId}`);
  return timestampMs(last.eventTime) - timestampMs(first.eventTime);
}

export interface CompiledWorker {
  stop(): Promise<void>;
}

/** The production worker as deployed: compiled JavaScript on plain node (`npm run build`), resolved once it polls. */
export async function startCompiledWorker(env: NodeJS.ProcessEnv, logFile: string): Promise<CompiledWorker> {
  const log = fs.createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'worker', 'main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (data: Buffer) => {
      log.write(data);
      seen += data.toString('utf8');
      if (seen.includes('sluice worker polling')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before polling; see ${logFile}`)));
  });
  return {
    async stop() {
      child.kill('SIGTERM');
      await exited;
      log.end();
    },
  };
}
