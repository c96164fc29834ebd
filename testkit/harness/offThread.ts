import { Worker } from 'node:worker_threads';

/**
 * Jest cannot time out a synchronous test: a quadratic regex that runs for ten minutes just makes
 * the test pass late. Running the call on a worker thread leaves Jest's event loop free, so its
 * default timeout fails the test, and `stopOffThreadCalls` (in afterEach) ends the stuck thread.
 * Not for stack-overflow tests: a worker's stack takes a spread of 150,000 arguments that the
 * main thread's does not, whatever its stackSizeMB.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
require(workerData.tsxApi).register();
const fn = require(workerData.modulePath)[workerData.exportName];
parentPort.postMessage(fn(...workerData.args));
`;

const running = new Set<Worker>();

/** Calls `exportName` of the TypeScript module at `modulePath` with `args` on a fresh thread. */
export function callOffThread<T>(modulePath: string, exportName: string, ...args: unknown[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { tsxApi: require.resolve('tsx/cjs/api'), modulePath, exportName, args },
    });
    running.add(worker);
    worker.once('message', (result: T) => {
      resolve(result);
      void stop(worker);
    });
    worker.once('error', (error) => {
      reject(error);
      void stop(worker);
    });
  });
}

export async function stopOffThreadCalls(): Promise<void> {
  await Promise.all([...running].map(stop));
}

async function stop(worker: Worker): Promise<void> {
  running.delete(worker);
  await worker.terminate();
}
