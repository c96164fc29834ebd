import fs from 'node:fs';

/**
 * Peak resident set of a live process (VmHWM in /proc), in bytes: worker threads (the parse
 * threads) count, since they live in the same process. Read it before the process exits.
 */
export function peakRssBytes(pid: number | 'self'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

/** CPU seconds (user + system) a live process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number | 'self'): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

/**
 * Resets VmHWM to the current RSS (Linux: "5" to clear_refs), so the peak covers the run and not
 * start-up (the worker bundles its workflow code with webpack when it starts, a one-off peak).
 */
export function resetPeakRss(pid: number | 'self'): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/**
 * CPU seconds of a server and its child processes: the live children's own, plus what the
 * server has collected from children it reaped (cutime/cstime). Postgres runs each connection
 * in a backend process that exits with the connection, so this is the way to count them all.
 */
export function processTreeCpuSeconds(rootPid: number): number {
  const fieldsOf = (pid: number | string) => {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  };
  const root = fieldsOf(rootPid);
  let ticks = Number(root[11]) + Number(root[12]) + Number(root[13]) + Number(root[14]);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = fieldsOf(entry);
      if (Number(fields[1]) === rootPid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process exited while we looked: its time is in the root's cutime by now, or soon.
    }
  }
  return ticks / 100;
}
