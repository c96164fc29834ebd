import path from 'node:path';
import { Piscina } from 'piscina';
import type { FailureCode } from '../contracts/failureCodes';
import { permanentError, transientError, type SluiceError } from '../contracts/sluiceError';
import { isStartedMessage, revive, type Task, type TaskReply } from './protocol';

/** The bounds every task of the pool runs under. */
export interface ThreadLimits {
  /** Wall clock of one task, counted from when a thread starts it (queueing is not counted). */
  timeoutMs: number;
  /** V8 old-generation heap of each thread. */
  maxHeapMb: number;
}

/** How a stage names the limits it hits: its codes and what it was doing (for the message). */
export interface LimitFailures {
  what: string;
  timeout: FailureCode;
  heap: FailureCode;
  crash: FailureCode;
}

export interface ThreadPoolOptions {
  /** Absolute path of the task module (.ts from source, .js from a build). */
  taskModule: string;
  threads: number;
  limits: ThreadLimits;
  /** The export loaded when a thread starts, so the first task finds the modules loaded. */
  warmTask: string;
  /** Thread failures no task is waiting for (a thread dying while idle). */
  onError?: (error: Error) => void;
}

/**
 * Warm worker threads (piscina) that run the tasks of one module under a time limit and a heap
 * cap. A thread is the only way to stop a task that loops synchronously: when the time is up the
 * task is aborted, piscina terminates the thread running it and starts a replacement. A task that
 * exhausts its heap kills only its own thread, replaced the same way; other tasks keep running.
 */
export class ThreadPool {
  private readonly piscina: Piscina;
  private readonly limits: ThreadLimits;
  private readonly onStarted = new Map<number, () => void>();
  private nextTaskId = 0;
  private closing = false;

  constructor(options: ThreadPoolOptions) {
    this.limits = options.limits;
    const fromSource = options.taskModule.endsWith('.ts');
    this.piscina = new Piscina({
      filename: fromSource ? path.join(__dirname, 'tsxThread.js') : options.taskModule,
      workerData: { sluiceTaskModule: options.taskModule },
      name: options.warmTask,
      minThreads: options.threads,
      maxThreads: options.threads,
      resourceLimits: { maxOldGenerationSizeMb: options.limits.maxHeapMb },
      // Not the parent's flags: under tsx they install its ESM loader, which re-transforms the
      // multi-megabyte pdf.js modules and triples the thread's memory. tsxThread.js registers
      // what the thread needs.
      execArgv: [],
      // An idle thread blocked in Atomics.wait would also stall a parser's leftover I/O callbacks.
      atomics: 'disabled',
      recordTiming: false,
    });
    this.piscina.on('message', (message: unknown) => {
      if (isStartedMessage(message)) this.onStarted.get(message.sluiceTaskStarted)?.();
    });
    this.piscina.on('error', (error: Error) => options.onError?.(error));
  }

  get threads(): number {
    return this.piscina.threads.length;
  }

  async run<R>(task: string, payload: unknown, failures: LimitFailures): Promise<R> {
    const taskId = ++this.nextTaskId;
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    this.onStarted.set(taskId, () => {
      timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, this.limits.timeoutMs);
    });
    let reply: TaskReply<R>;
    try {
      reply = (await this.piscina.run({ taskId, payload } satisfies Task<unknown>, {
        name: task,
        signal: abort.signal,
      })) as TaskReply<R>;
    } catch (error) {
      throw timedOut ? this.timeout(failures) : this.threadFailure(failures, error as Error & { code?: string });
    } finally {
      clearTimeout(timer);
      this.onStarted.delete(taskId);
    }
    if (!reply.ok) throw revive(reply.error);
    return reply.value;
  }

  /** Aborts queued tasks and terminates every thread. */
  async close(): Promise<void> {
    this.closing = true;
    await this.piscina.destroy();
  }

  private timeout(failures: LimitFailures): SluiceError {
    return permanentError(
      failures.timeout,
      `${failures.what} took longer than the ${this.limits.timeoutMs} ms limit (SLUICE_PARSE_TIMEOUT)`,
    );
  }

  private threadFailure(failures: LimitFailures, error: Error & { code?: string }): SluiceError {
    // The worker is shutting down: says nothing about the document, another attempt will do.
    if (this.closing)
      return transientError(failures.crash, `${failures.what} was cut short: the worker is shutting down`, error);
    if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return permanentError(
        failures.heap,
        `${failures.what} needs more than the ${this.limits.maxHeapMb} MB heap (SLUICE_PARSE_HEAP_MB)`,
        error,
      );
    }
    return permanentError(failures.crash, `${failures.what} crashed its thread: ${error.message}`, error);
  }
}
