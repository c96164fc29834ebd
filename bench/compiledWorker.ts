import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SluiceConfig } from '../config/config';
import { workerEnv } from '../testkit/harness/childWorker';

const ROOT = path.resolve(__dirname, '..');
export const COMPILED_WORKER = path.join(ROOT, 'dist', 'worker', 'main.js');

// What `npm run build` compiles (tsconfig.build.json excludes the rest): a newer file here means
// dist/ runs code that is no longer there. The same test as bin/sluice's.
const NOT_BUILT = new Set(['node_modules', 'dist', '.sluice', '.git', 'test', 'bench', 'eval', 'scripts']);

function newerThan(dir: string, mtimeMs: number): string | null {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (dir === ROOT && NOT_BUILT.has(entry.name)) continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = newerThan(file, mtimeMs);
      if (found) return found;
    } else if (/\.(ts|js|css)$/.test(entry.name) && fs.statSync(file).mtimeMs > mtimeMs) return file;
  }
  return null;
}

/** Runs `npm run build` unless dist/ is at least as new as every source file. */
export function ensureBuilt(): void {
  const built = fs.existsSync(COMPILED_WORKER) ? fs.statSync(COMPILED_WORKER).mtimeMs : -1;
  const stale = built < 0 ? 'no dist/' : newerThan(ROOT, built);
  if (!stale) return;
  console.error(`building (${path.relative(ROOT, stale)} is newer than dist/)`);
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', process.stderr, process.stderr] });
}

/**
 * The worker as production runs it (Dockerfile: `node dist/worker/main.js`), as a child process
 * with the bench's config, logging into the data dir (one file per process).
 */
export function spawnCompiledWorker(config: Readonly<SluiceConfig>): ChildProcess {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const child = spawn(process.execPath, [COMPILED_WORKER], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: workerEnv(config),
  });
  const log = fs.createWriteStream(path.join(config.dataDir, `worker-${child.pid}.log`));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

/** Resolves when the child prints the line main.ts prints just before it starts polling. */
export function polling(child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`worker ${child.pid} not polling after ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onExit = () => reject(new Error(`worker ${child.pid} exited before polling`));
    child.once('exit', onExit);
    child.stdout?.on('data', (data: Buffer) => {
      seen = (seen + data.toString('utf8')).slice(-4096);
      if (seen.includes('sluice worker polling')) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve();
      }
    });
  });
}
