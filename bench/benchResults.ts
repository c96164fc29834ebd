import fs from 'node:fs';
import path from 'node:path';

/** Writes a bench's result as bench-results/<file> (JSON) and prints it. */
export function writeBenchResult(file: string, result: unknown): void {
  const dir = path.resolve(__dirname, '..', 'bench-results');
  fs.mkdirSync(dir, { recursive: true });
  const json = JSON.stringify(result, null, 2);
  fs.writeFileSync(path.join(dir, file), `${json}\n`);
  console.log(json);
}
