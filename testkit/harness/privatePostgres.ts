import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PrivatePostgres {
  port: number;
  /** A database URL on this server (the database is created by `createDatabase`). */
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  /** The postmaster's pid, read from its lock file; null while it is down. */
  postmasterPid(): number | null;
  /** SIGKILL of the postmaster, as a crash or a failed-over host would end it. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data (crash recovery runs as after a real crash). */
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  destroy(): Promise<void>;
}

/** The same binaries scripts/stack/postgres.sh uses: SLUICE_PG_BINDIR or the highest Debian major. */
function bindir(): string {
  const explicit = process.env.SLUICE_PG_BINDIR;
  if (explicit) return explicit;
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((d) => /^\d+$/.test(d)) : [];
  const best = majors
    .sort((a, b) => Number(b) - Number(a))
    .find((m) => fs.existsSync(path.join(root, m, 'bin', 'postgres')));
  if (!best)
    throw new Error(
      'no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (bash scripts/stack.sh start installs them)',
    );
  return path.join(root, best, 'bin');
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A PostgreSQL cluster of its own (initdb into a temp dir, a free port) that a test or a bench
 * may SIGKILL and restart without touching the shared stack's server. As root it runs as the
 * `postgres` OS user, like the stack's (postgres refuses to run as root).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = bindir();
  const root = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  fs.mkdirSync(data, { mode: 0o700 });
  fs.writeFileSync(log, '');
  if (root) await run('chown', ['-R', 'postgres:', dir]);
  const pg = (tool: string, args: string[]) =>
    root
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { cwd: '/' })
      : run(path.join(bin, tool), args);
  await pg('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  const options = `-p ${port} -k '${dir}' -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off`;

  const postmasterPid = (): number | null => {
    try {
      const pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 0);
      // A killed postmaster whose parent (pg_ctl's shell, gone) left it to an init that does
      // not reap is a zombie: dead, though kill(0) still finds it.
      const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
      return state === 'Z' ? null : pid;
    } catch {
      return null;
    }
  };

  const start = async () => {
    // Right after a SIGKILL the old backends may still hold the shared memory for a moment
    // (they exit once they notice the postmaster is gone): postgres refuses to start until then.
    for (let attempt = 1; ; attempt++) {
      try {
        await pg('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', options, 'start']);
        return;
      } catch (error) {
        if (attempt >= 30)
          throw new Error(`private postgres did not start: ${fs.readFileSync(log, 'utf8').slice(-2000)}`, {
            cause: error,
          });
        await sleep(500);
      }
    }
  };

  await start();
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name) {
      await pg('psql', [
        '-X',
        '-q',
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-d',
        'postgres',
        '-c',
        `CREATE DATABASE "${name}"`,
      ]);
    },
    postmasterPid,
    async kill() {
      const pid = postmasterPid();
      if (pid === null) return;
      process.kill(pid, 'SIGKILL');
      while (postmasterPid() === pid) await sleep(20);
    },
    start,
    async destroy() {
      if (postmasterPid() !== null)
        await pg('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
