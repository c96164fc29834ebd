import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SluiceConfig } from '../../config/config';

const ROOT = path.resolve(__dirname, '..', '..');

/** A worker process's environment: the test's (or bench's) config, not the local profile's defaults. */
export function workerEnv(config: Readonly<SluiceConfig>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TEMPORAL_ADDRESS: config.temporal.address,
    DATABASE_URL: config.database.url,
    SLUICE_DATA_DIR: config.dataDir,
    SLUICE_TASK_QUEUE: config.temporal.taskQueue,
    SLUICE_EMBED_BATCH_SIZE: String(config.embedding.batchSize),
    // The caller's embedder, not the local profile's default (the model).
    SLUICE_EMBEDDER: config.stores.embedder.kind,
    SLUICE_EMBED_DIMENSION: String(config.embedding.dimension),
    SLUICE_MODEL_DIR: config.embedding.localModel.dir,
    SLUICE_LANGUAGE_DENSE: config.embedding.languageDense,
    SLUICE_SWEEP_EVERY: 'off',
  };
}

/** The real worker entry point (`worker/main.ts`) as a child process, so a test can SIGKILL it. */
export function spawnWorker(config: Readonly<SluiceConfig>, extraEnv: Record<string, string> = {}): ChildProcess {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const log = fs.openSync(path.join(config.dataDir, `worker-${Date.now()}.log`), 'a');
  // `node --import tsx` keeps the worker in this one process: the tsx CLI would run it in a
  // grandchild that a SIGKILL of the CLI leaves running.
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'worker', 'main.ts')], {
    cwd: ROOT,
    stdio: ['ignore', log, log],
    env: { ...workerEnv(config), ...extraEnv },
  });
}

export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
