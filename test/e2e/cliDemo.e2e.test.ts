import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { STACK_MODEL_DIR, TEST_DATABASE_URL } from '../../testkit/harness/testConfig';

// `sluice demo` as a user runs it (bin/sluice, its own stack start and in-process worker), on the
// test database and a task queue of its own: it must end with every sample SUCCESS, draw its
// progress bars and print no SDK warning or error line to a user who did nothing wrong.
const ROOT = path.resolve(__dirname, '..', '..');
let objectsDir: string;

beforeAll(async () => {
  objectsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sluice-demo-'));
});
afterAll(async () => {
  await fs.rm(objectsDir, { recursive: true, force: true });
});

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'bin', 'sluice'), args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const parts: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => parts.push(b));
    child.stderr.on('data', (b: Buffer) => parts.push(b));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: Buffer.concat(parts).toString('utf8') }));
  });
}

it('ingests the samples with progress bars and prints no SDK warning', async () => {
  const { code, output } = await runCli(['demo'], {
    ...process.env,
    DATABASE_URL: TEST_DATABASE_URL,
    SLUICE_OBJECTS_DIR: objectsDir,
    SLUICE_TASK_QUEUE: `sluice-demo-${randomUUID()}`,
    SLUICE_EMBEDDER: 'local',
    SLUICE_MODEL_DIR: STACK_MODEL_DIR,
    SLUICE_SWEEP_EVERY: 'off',
  });
  expect({ code, tail: output.slice(-2000) }).toEqual({ code: 0, tail: expect.stringContaining('Web UI: ') });
  // Every sample, the scanned ones (OCR) included.
  expect(output.match(/6\/6 SUCCESS/g)).toHaveLength(6);
  expect(output).toContain('█');
  // The Runtime logger's lines look like `<time> [WARN] message`, core's with a [TMPRL....] code.
  const sdkLines = output.split('\n').filter((line) => /\[(WARN|ERROR)\]|TMPRL\d+/.test(line));
  expect(sdkLines).toEqual([]);
});
