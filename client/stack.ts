import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { packageRoot } from '../config/packageRoot';

/** Runs the one stack script (scripts/stack.sh), which installs and starts what is missing. */
export function startLocalStack(): void {
  const script = path.join(packageRoot(), 'scripts', 'stack.sh');
  const result = spawnSync('bash', [script, 'start'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the local stack did not start (see the stack: line above)');
}
