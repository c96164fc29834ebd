import { execFile, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/**
 * Settings every git run gets, whatever the worker's git config says: no credential helper (a
 * tenant's URL must not be answered with the operator's stored credentials), an askpass that
 * answers nothing instead of a terminal prompt that would hang the worker, no redirect followed
 * (the outbound policy checked the URL's host, not where it redirects to), and only the one
 * transport the source's URL was checked for.
 */
function guarded(args: readonly string[], transport: 'file' | 'https' | null): string[] {
  return [
    '-c',
    'credential.helper=',
    '-c',
    'core.askPass=true',
    '-c',
    'http.followRedirects=false',
    '-c',
    'protocol.allow=never',
    ...(transport === null ? [] : ['-c', `protocol.${transport}.allow=always`]),
    ...args,
  ];
}

/** A git run that failed: its exit code, the end of what it wrote to stderr, and whether it ran out of time. */
export class GitFailed extends Error {
  override readonly name = 'GitFailed';
  constructor(
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    super(timedOut ? 'git ran out of time' : `git failed: ${stderr.trim().split('\n').at(-1) ?? ''}`);
  }
}

const STDERR_KEPT = 2000;

export interface GitRun {
  cwd: string;
  timeoutMs: number;
  /** The transport the URL among `args` was checked for; null when git reads only the local mirror. */
  transport?: 'file' | 'https' | null;
}

/** Runs git to the end and returns its stdout, at most `maxBytes` of it (more is a failure). */
export function runGit(args: readonly string[], run: GitRun & { maxBytes: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      guarded(args, run.transport ?? null),
      { cwd: run.cwd, timeout: run.timeoutMs, killSignal: 'SIGKILL', maxBuffer: run.maxBytes, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        // Killed either for its time or for writing more than maxBytes; only the first is a timeout.
        const timedOut = error.killed === true && error.code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
        reject(new GitFailed(String(stderr).slice(-STDERR_KEPT) || error.message, timedOut));
      },
    );
  });
}

/**
 * Starts git with its stdout as a stream, for output too large to hold (a tree listing, a blob).
 * `done` settles when git exits: rejected on a non-zero exit or after `timeoutMs`, when git is
 * killed. `stop` kills it early (the reader has read enough).
 */
export function spawnGit(
  args: readonly string[],
  run: GitRun,
): { stdout: Readable; done: Promise<void>; stop(): void } {
  const child = spawn('git', guarded(args, run.transport ?? null), {
    cwd: run.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let timedOut = false;
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, run.timeoutMs);
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (error) => reject(new GitFailed(error.message, false)));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new GitFailed(stderr, timedOut));
    });
  });
  // A caller that stopped early or only awaits the stream must not see an unhandled rejection.
  done.catch(() => undefined);
  return { stdout: child.stdout, done, stop: () => child.kill('SIGKILL') };
}
