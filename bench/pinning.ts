import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * CPU lists for the pinned rounds of the throughput bench (BENCH_PIN=1): the pipeline processes of
 * both sides (the plain loop, the durable workers) share the first half of the cores, the Temporal
 * server and Postgres the other half (on 2 cores: 0 and 1). Unpinned, the servers compete with the
 * durable side's workers for the same two cores, while side (a) has Postgres to itself nearly
 * idle; pinned, each side's pipeline gets the same CPU and the servers' cost shows as latency.
 */
export interface CpuSplit {
  pipeline: string;
  servers: string;
  all: string;
}

export function cpuSplit(cpus = os.cpus().length): CpuSplit | null {
  if (cpus < 2) return null;
  const half = Math.floor(cpus / 2);
  const range = (from: number, to: number) => (to - from === 1 ? `${from}` : `${from}-${to - 1}`);
  return { pipeline: range(0, half), servers: range(half, cpus), all: range(0, cpus) };
}

/**
 * Sets the CPU affinity of every thread of each process (`taskset -a -p`); threads and children
 * they start later inherit it. A process that exited meanwhile (a Postgres backend whose
 * connection closed) is skipped.
 */
export function setAffinity(pids: number[], cpuList: string): void {
  for (const pid of pids) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
    } catch (error) {
      if (fs.existsSync(`/proc/${pid}`)) throw error;
    }
  }
}

const RUN_DIR = path.join(process.env.SLUICE_DATA_DIR ?? path.resolve(__dirname, '..', '.sluice'), 'run');

/** A server started by scripts/stack.sh, by its pid file under .sluice/ (first line); absent → null. */
export function stackPid(pidFile: 'temporal.pid' | 'temporal-tls.pid' | '../pg/postmaster.pid'): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(RUN_DIR, pidFile), 'utf8').split('\n')[0]?.trim());
    return Number.isInteger(pid) && fs.existsSync(`/proc/${pid}/stat`) ? pid : null;
  } catch {
    return null;
  }
}

/** The direct children of a process: Postgres's backends and its auxiliary processes. */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return children;
}

/** The stack's Temporal server and Postgres (the postmaster, its backends and helpers). */
export function stackServerPids(): number[] {
  const temporal = stackPid('temporal.pid');
  const postgres = stackPid('../pg/postmaster.pid');
  return [...(temporal ? [temporal] : []), ...(postgres ? [postgres, ...childrenOf(postgres)] : [])];
}
