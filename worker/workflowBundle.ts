import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, type WorkerOptions } from '@temporalio/worker';

/**
 * The workflow bundle `npm run build` writes next to the compiled code (dist/workflow-bundle.js).
 * Run from source, this names a file that does not exist, so source runs always bundle their
 * own, current workflow code.
 */
const BUNDLE_FILE = path.join(__dirname, '..', 'workflow-bundle.js');

/**
 * Where the worker takes its workflow code from: the bundle built ahead of time when there is
 * one (no webpack at start-up, and the code that runs is the code that was built), else the
 * workflow sources, bundled as the worker starts.
 */
export function workflowSource(): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  if (fs.existsSync(BUNDLE_FILE)) return { workflowBundle: { codePath: BUNDLE_FILE } };
  return { workflowsPath: require.resolve('../workflows') };
}

/** Bundles the (compiled) workflows into BUNDLE_FILE: the build's last step. */
async function writeBundle(): Promise<void> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  // Written aside and renamed: a worker starting meanwhile never loads half a bundle.
  const partial = `${BUNDLE_FILE}.${process.pid}.partial`;
  await fs.promises.writeFile(partial, code);
  await fs.promises.rename(partial, BUNDLE_FILE);
  console.log(`workflow bundle: ${path.relative(process.cwd(), BUNDLE_FILE)} (${Math.round(code.length / 1024)} KiB)`);
}

if (require.main === module) {
  writeBundle().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
