import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, type WorkerOptions } from '@temporalio/worker';
import { packageRoot } from '../config/packageRoot';

/**
 * The workflow bundle `npm run build` writes next to the compiled code (dist/workflow-bundle.js).
 * Run from source, this names a file that does not exist.
 */
const BUNDLE_FILE = path.join(__dirname, '..', 'workflow-bundle.js');

/**
 * What a bundle of the workflow sources is made of: workflows/ and contracts/ (the only code the
 * lint rule lets workflow code import; activity imports are types, erased) and the locked
 * dependency versions (the SDK, zod).
 */
const BUNDLE_INPUT_DIRS = ['workflows', 'contracts'];
const BUNDLE_CACHE_DIR = path.join(packageRoot(), 'node_modules', '.cache', 'sluice');
const STALE_AFTER_MS = 24 * 3_600_000;

const bundlerLogger = { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} };

/**
 * Where the worker takes its workflow code from: the bundle built ahead of time when there is
 * one (no webpack at start-up, and the code that runs is the code that was built), else a bundle
 * of the current workflow sources, made once per version of them and kept in node_modules/.cache:
 * bundling takes seconds (tens on a busy machine), and a worker started after a crash should not
 * spend them again before it takes the dead worker's tasks.
 */
export async function workflowSource(): Promise<Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'>> {
  if (fs.existsSync(BUNDLE_FILE)) return { workflowBundle: { codePath: BUNDLE_FILE } };
  // Compiled code without its bundle: the cache key names the TypeScript sources, which this
  // code may not have been compiled from, so it bundles what it runs, every time.
  if (!__filename.endsWith('.ts')) return { workflowsPath: require.resolve('../workflows') };
  const codePath = path.join(BUNDLE_CACHE_DIR, `workflow-bundle-${sourceHash()}.js`);
  if (!fs.existsSync(codePath)) {
    const { code } = await bundleWorkflowCode({
      workflowsPath: require.resolve('../workflows'),
      logger: bundlerLogger,
    });
    await writeAside(codePath, code);
    removeStaleBundles(codePath);
  }
  return { workflowBundle: { codePath } };
}

function sourceHash(): string {
  const root = packageRoot();
  const hash = crypto.createHash('sha256');
  const files = BUNDLE_INPUT_DIRS.flatMap((dir) =>
    (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(dir, f)),
  ).sort();
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(fs.readFileSync(path.join(root, file)))
      .update('\0');
  hash.update(fs.readFileSync(path.join(root, 'package-lock.json')));
  return hash.digest('hex').slice(0, 16);
}

/** Written aside and renamed: a worker starting meanwhile never loads half a bundle. */
async function writeAside(file: string, code: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await fs.promises.writeFile(partial, code);
  await fs.promises.rename(partial, file);
}

/** Bundles of older sources, once nothing recent can still be starting from them. */
function removeStaleBundles(current: string): void {
  for (const name of fs.readdirSync(BUNDLE_CACHE_DIR)) {
    const file = path.join(BUNDLE_CACHE_DIR, name);
    if (
      file !== current &&
      name.startsWith('workflow-bundle-') &&
      Date.now() - fs.statSync(file).mtimeMs > STALE_AFTER_MS
    )
      fs.rmSync(file, { force: true });
  }
}

/** Bundles the (compiled) workflows into BUNDLE_FILE: the build's last step. */
async function writeBundle(): Promise<void> {
  const { code } = await bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: bundlerLogger });
  await writeAside(BUNDLE_FILE, code);
  console.log(`workflow bundle: ${path.relative(process.cwd(), BUNDLE_FILE)} (${Math.round(code.length / 1024)} KiB)`);
}

if (require.main === module) {
  writeBundle().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
