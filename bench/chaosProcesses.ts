import type { ChildProcess } from 'node:child_process';
import type { SluiceConfig } from '../config/config';
import { spawnApi } from '../testkit/harness/childApi';
import { killHard, spawnWorker } from '../testkit/harness/childWorker';

export interface ProcessExit {
  role: 'worker' | 'api';
  pid: number;
  code: number | null;
  signal: string | null;
  /** True when the injector killed it; any other exit is a violation. */
  killed: boolean;
}

/**
 * The soak's sluice processes (workers and one API), each a real child process. Every exit is
 * recorded with whether the injector caused it, so "no process exited except those killed"
 * is checked on the record, not assumed.
 */
export class SluiceProcesses {
  readonly exits: ProcessExit[] = [];
  private readonly workers = new Set<ChildProcess>();
  private readonly killing = new Set<ChildProcess>();
  private api: ChildProcess | null = null;
  spawned = 0;

  constructor(
    private readonly config: Readonly<SluiceConfig>,
    private readonly env: Record<string, string>,
  ) {}

  private watch(child: ChildProcess, role: ProcessExit['role']): ChildProcess {
    this.spawned++;
    child.once('exit', (code, signal) => {
      this.workers.delete(child);
      this.exits.push({ role, pid: child.pid ?? -1, code, signal, killed: this.killing.has(child) });
    });
    return child;
  }

  startWorker(): void {
    this.workers.add(this.watch(spawnWorker(this.config, this.env), 'worker'));
  }

  startApi(port: number): ChildProcess {
    this.api = this.watch(spawnApi(this.config, port, this.env), 'api');
    return this.api;
  }

  /** SIGKILL of a random running worker, then its replacement: the fault "a worker dies". */
  async killWorker(random: () => number): Promise<void> {
    const running = [...this.workers];
    const victim = running[Math.floor(random() * running.length)];
    if (!victim) return;
    this.killing.add(victim);
    await killHard(victim);
    this.startWorker();
  }

  get unexpectedExits(): ProcessExit[] {
    return this.exits.filter((e) => !e.killed);
  }

  async stopAll(): Promise<void> {
    const all = [...this.workers, ...(this.api ? [this.api] : [])];
    for (const child of all) this.killing.add(child);
    for (const child of all) await killHard(child);
  }
}
