import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { transientError, type SluiceError } from '../contracts/sluiceError';
import type { ChildMessage, ChildRequest, OcrPageStarted } from './childServer';
import { exitFailure, shuttingDown } from './processFailure';
import { TaskDeadline } from './taskDeadline';
import type { ProcessLimits } from './processLimits';
import { peakResidentBytes, residentBytes, resetPeakResident } from './processMemory';
import { revive } from './protocol';
import type { LimitFailures } from './threadPool';

export type { ProcessLimits };

/** How much memory one finished task took, measured by the kernel (VmHWM), for tests and benchmarks. */
export interface TaskMemory {
  task: string;
  peakResidentBytes: number | null;
  /** Resident size when the task began (the warm child's own), so a task's growth is the difference. */
  startResidentBytes: number | null;
  killedAtLimit: boolean;
}

export interface ProcessPoolOptions {
  /** Absolute path of the child module (.ts from source, .js from a build); it calls serveTasks. */
  childModule: string;
  processes: number;
  /**
   * Children kept beyond `processes` for tasks not marked long: long tasks (a scanned PDF's OCR
   * takes seconds a page) never hold more than `processes` children, so a small document's parse
   * does not queue behind them for minutes. Small parses run as local activities inside a workflow
   * task (activities/stages/prepareTask.ts localStagePlan), where a wait in this queue stalls the task.
   */
  shortTaskReserve?: number;
  limits: ProcessLimits;
  /** How often a running task's resident memory is read; overshoot past the limit is what it allocates meanwhile. */
  watchIntervalMs?: number;
  onTaskMemory?: (memory: TaskMemory) => void;
  /** Child failures no task is waiting for (a child dying while idle or starting). */
  onError?: (error: Error) => void;
}

interface Job {
  task: string;
  long: boolean;
  /** Told as the task begins another page of OCR. */
  onOcrPage?: (started: OcrPageStarted) => void;
  payload: unknown;
  failures: LimitFailures;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Child {
  process: ChildProcess;
  ready: boolean;
  /** The end of its stderr: how V8 says it ran out of heap. */
  stderr: string;
  running?: {
    job: Job;
    taskId: number;
    deadline: TaskDeadline;
    verdict?: 'timeout' | 'memory';
    peak: number | null;
    startResident: number | null;
    stop: () => void;
  };
}

const STDERR_TAIL = 4096;

/**
 * Warm child processes that run one task each at a time under an OS-level memory bound: a
 * watchdog reads each busy child's resident size from /proc every few milliseconds and kills the
 * child past the limit, as it does at the time limit. Unlike a worker thread's resourceLimits,
 * which bound only the V8 heap, this counts memory outside the heap too. A dead child is
 * replaced, so the pool stays warm.
 */
export class ProcessPool {
  private readonly children = new Set<Child>();
  private readonly queue: Job[] = [];
  private nextTaskId = 0;
  private closing = false;

  constructor(private readonly options: ProcessPoolOptions) {
    const children = Math.max(1, options.processes) + Math.max(0, options.shortTaskReserve ?? 0);
    for (let i = 0; i < children; i++) this.spawn();
  }

  /** `long`: a task that may run for minutes; it waits rather than take the short tasks' reserve. */
  run<R>(
    task: string,
    payload: unknown,
    failures: LimitFailures,
    { long = false, onOcrPage }: { long?: boolean; onOcrPage?: (started: OcrPageStarted) => void } = {},
  ): Promise<R> {
    if (this.closing) return Promise.reject(shuttingDown(failures));
    return new Promise<R>((resolve, reject) => {
      const resolveAny = resolve as (value: unknown) => void;
      this.queue.push({
        task,
        long,
        payload,
        failures,
        resolve: resolveAny,
        reject,
        ...(onOcrPage ? { onOcrPage } : {}),
      });
      this.pump();
    });
  }

  /** Fails queued tasks, kills every child and waits for them to exit. */
  async close(): Promise<void> {
    this.closing = true;
    for (const job of this.queue.splice(0)) job.reject(shuttingDown(job.failures));
    const exits = [...this.children].map((child) => exited(child.process));
    for (const child of this.children) child.process.kill('SIGKILL');
    await Promise.all(exits);
  }

  private spawn(): void {
    const { childModule, limits } = this.options;
    const fromSource = childModule.endsWith('.ts');
    const proc = fork(fromSource ? path.join(__dirname, 'tsxChild.js') : childModule, fromSource ? [childModule] : [], {
      // Not the parent's flags (Jest's or tsx's loaders): only the heap bound.
      execArgv: [`--max-old-space-size=${limits.maxHeapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const child: Child = { process: proc, ready: false, stderr: '' };
    this.children.add(child);
    proc.stderr?.setEncoding('utf8');
    proc.stderr?.on('data', (text: string) => (child.stderr = (child.stderr + text).slice(-STDERR_TAIL)));
    proc.on('message', (message: ChildMessage) => this.onMessage(child, message));
    proc.on('error', (error) => this.options.onError?.(error));
    proc.once('exit', (code, signal) => this.onExit(child, code, signal));
  }

  /** Starts queued jobs in order on idle children; a long job over the long limit lets later short ones pass. */
  private pump(): void {
    let longRunning = 0;
    const idle: Child[] = [];
    for (const child of this.children) {
      if (child.running?.job.long) longRunning++;
      if (child.ready && !child.running && child.process.connected) idle.push(child);
    }
    const longLimit = Math.max(1, this.options.processes);
    for (let i = 0; i < this.queue.length && idle.length > 0;) {
      const job = this.queue[i]!;
      if (job.long && longRunning >= longLimit) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      if (job.long) longRunning++;
      this.start(idle.pop()!, job);
    }
  }

  private start(child: Child, job: Job): void {
    const pid = child.process.pid!;
    const taskId = ++this.nextTaskId;
    const limitBytes = this.options.limits.maxMemoryMb * 1024 * 1024;
    resetPeakResident(pid);
    const startResident = residentBytes(pid);
    const kill = (verdict: 'timeout' | 'memory') => {
      if (!child.running || child.running.verdict) return;
      child.running.verdict = verdict;
      child.running.peak = peakResidentBytes(pid);
      child.process.kill('SIGKILL');
    };
    const deadline = new TaskDeadline(this.options.limits, job.long, () => kill('timeout'));
    const watch = setInterval(() => {
      if ((residentBytes(pid) ?? 0) > limitBytes) kill('memory');
    }, this.options.watchIntervalMs ?? 5);
    const stop = () => {
      deadline.stop();
      clearInterval(watch);
    };
    child.running = { job, taskId, deadline, peak: null, startResident, stop };
    child.process.send({ taskId, task: job.task, payload: job.payload } satisfies ChildRequest);
  }

  private onMessage(child: Child, message: ChildMessage): void {
    if ('ready' in message) {
      child.ready = true;
      this.pump();
      return;
    }
    const running = child.running;
    if (!running || running.taskId !== message.taskId || running.verdict) return;
    if ('ocrPage' in message) {
      running.deadline.ocrPageStarted();
      running.job.onOcrPage?.(message.ocrPage);
      return;
    }
    running.stop();
    child.running = undefined;
    this.report(running, peakResidentBytes(child.process.pid!), false);
    if (message.reply.ok) running.job.resolve(message.reply.value);
    else running.job.reject(revive(message.reply.error));
    this.pump();
  }

  private onExit(child: Child, code: number | null, signal: NodeJS.Signals | null): void {
    this.children.delete(child);
    const running = child.running;
    if (running) {
      running.stop();
      if (running.verdict === 'memory') this.report(running, running.peak, true);
      running.job.reject(this.failure(running, child.stderr, code, signal));
    } else if (!this.closing) {
      this.options.onError?.(new Error(`a parse process exited while idle (${signal ?? code}): ${child.stderr}`));
    }
    if (this.closing) return;
    // A child that never became ready would die again at once: fail what waits instead of looping,
    // retryable, since no document was read.
    if (!child.ready) {
      const tail = child.stderr.trim().slice(-300);
      for (const job of this.queue.splice(0)) {
        job.reject(
          transientError(job.failures.crash, `the parse process did not start (${signal ?? `exit ${code}`}): ${tail}`),
        );
      }
      setTimeout(() => this.closing || this.spawn(), 1000).unref();
      return;
    }
    this.spawn();
  }

  private failure(
    { job: { failures }, deadline, verdict }: NonNullable<Child['running']>,
    stderr: string,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): SluiceError {
    if (!verdict && this.closing) return shuttingDown(failures);
    return exitFailure({
      failures,
      limits: this.options.limits,
      timeLimit: deadline.describe(),
      verdict,
      stderr,
      exit: signal ?? `exit ${code}`,
    });
  }

  private report(
    running: { job: Job; startResident: number | null },
    peakResidentBytes: number | null,
    killedAtLimit: boolean,
  ): void {
    this.options.onTaskMemory?.({
      task: running.job.task,
      peakResidentBytes,
      startResidentBytes: running.startResident,
      killedAtLimit,
    });
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}
