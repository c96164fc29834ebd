import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SluiceConfig } from '../../config/config';
import { workerEnv } from './childWorker';

const ROOT = path.resolve(__dirname, '..', '..');

/** `sluice serve` (the API process) as a child, with the test's config, logging into the data dir. */
export function spawnApi(
  config: Readonly<SluiceConfig>,
  port: number,
  extraEnv: Record<string, string> = {},
): ChildProcess {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const log = fs.openSync(path.join(config.dataDir, `api-${Date.now()}.log`), 'a');
  return spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'cli', 'main.ts'), 'serve'], {
    cwd: ROOT,
    stdio: ['ignore', log, log],
    env: { ...workerEnv(config), ...extraEnv, SLUICE_API_HOST: '127.0.0.1', SLUICE_API_PORT: String(port) },
  });
}

/** Resolves once the API at `baseUrl` answers /healthz with 200; fails if the child exits first. */
export async function apiHealthy(child: ChildProcess, baseUrl: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`API process exited (${child.exitCode})`);
    const status = await fetch(`${baseUrl}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`API at ${baseUrl} not healthy after ${timeoutMs} ms`);
}
