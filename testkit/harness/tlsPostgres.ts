import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type { TestCa } from '../fixtures/testCa';

export interface TlsPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres, without TLS parameters. */
  url: string;
  stop(): Promise<void>;
}

/** The newest Debian PostgreSQL's binaries, as scripts/stack/postgres.sh finds them. */
function bindir(): string {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  const newest = majors.sort((a, b) => Number(a) - Number(b)).pop();
  if (newest === undefined)
    throw new Error(`no PostgreSQL server under ${root} (bash scripts/stack.sh start installs it)`);
  return path.join(root, newest, 'bin');
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/**
 * A private PostgreSQL cluster of this test alone, on a free port, that accepts TCP clients only
 * over TLS (`hostssl` in pg_hba.conf) with a certificate the test CA signed. Postgres refuses to
 * run as root, so as root (CI) its files belong to the `postgres` user and it runs as that user.
 */
export async function startTlsPostgres(ca: TestCa): Promise<TlsPostgres> {
  const bin = bindir();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-tls-pg-'));
  fs.chmodSync(dir, 0o755);
  const data = path.join(dir, 'data');
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { cwd: '/', stdio: 'pipe' })
      : execFileSync(path.join(bin, tool), args, { stdio: 'pipe' });
  if (asRoot) execFileSync('chown', ['postgres:', dir]);
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  fs.writeFileSync(path.join(data, 'pg_hba.conf'), 'local all all trust\nhostssl all all 127.0.0.1/32 trust\n');
  fs.copyFileSync(ca.certFile, path.join(data, 'server.pem'));
  fs.copyFileSync(ca.keyFile, path.join(data, 'server.key'));
  fs.chmodSync(path.join(data, 'server.key'), 0o600);
  if (asRoot) execFileSync('chown', ['-R', 'postgres:', data]);

  const port = await freePort();
  const args = [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
  ].concat(['-c', 'ssl=on', '-c', 'ssl_cert_file=server.pem', '-c', 'ssl_key_file=server.key']);
  const server: ChildProcess = asRoot
    ? spawn('runuser', ['-u', 'postgres', '--', path.join(bin, 'postgres'), ...args], { cwd: '/', stdio: 'ignore' })
    : spawn(path.join(bin, 'postgres'), args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    // SIGINT is postgres's fast shutdown. As root the child is runuser, which does not pass it
    // on, so it goes to the postmaster itself (its pid is postmaster.pid's first line).
    const pidFile = path.join(data, 'postmaster.pid');
    const postmaster = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]) : NaN;
    if (server.exitCode === null) {
      if (asRoot && Number.isInteger(postmaster)) process.kill(postmaster, 'SIGINT');
      else server.kill('SIGINT');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  // Ready when a TLS client gets in (bounded: 30 s).
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new Client({ connectionString: url, ssl: { rejectUnauthorized: false } });
    try {
      await client.connect();
      await client.end();
      return { url, stop };
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline || server.exitCode !== null) {
        await stop();
        throw new Error(`private TLS PostgreSQL did not start: ${String(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
