import type { Worker } from '@temporalio/worker';

/**
 * The workers of one process run and stop together: the main task queue's worker (workflows and
 * every stage but VECTORIZING) and the embedding queue's worker. If one stops or fails, the
 * other is shut down too, so a process never keeps half of the pipeline alive.
 */
export class WorkerGroup {
  constructor(readonly workers: readonly Worker[]) {}

  async run(): Promise<void> {
    const settled = await Promise.allSettled(this.workers.map((w) => w.run().finally(() => this.shutdown())));
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Runs until `until` settles (or a worker stops), then shuts every worker down and drains it. */
  async runUntil<R>(until: Promise<R> | (() => Promise<R>)): Promise<R> {
    const running = this.run();
    const stoppedEarly = running.then(() => {
      throw new Error('workers stopped before the work they ran for finished');
    });
    try {
      return await Promise.race([typeof until === 'function' ? until() : until, stoppedEarly]);
    } finally {
      this.shutdown();
      await running;
    }
  }

  /** Idempotent: only workers still running are asked to stop. */
  shutdown(): void {
    for (const w of this.workers) if (w.getState() === 'RUNNING') w.shutdown();
  }
}
