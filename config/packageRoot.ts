import fs from 'node:fs';
import path from 'node:path';

let root: string | undefined;

/**
 * The directory holding sluice's package.json: the repository when running from source, and
 * still the repository (or the image's /app) when running the build, whose modules sit one
 * level deeper, under dist/. Files outside the code (samples, scripts, the data directory) are
 * found from here, so the compiled CLI and the TypeScript one use the same ones.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = path.resolve(__dirname, '..');
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  root = dir;
  return root;
}
