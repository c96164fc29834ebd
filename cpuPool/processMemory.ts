import { readFileSync, writeFileSync } from 'node:fs';

/**
 * A child process's resident memory as the kernel counts it (Linux /proc): every page it
 * touched, whether V8's heap, a Buffer, an ArrayBuffer pdf.js decoded a stream into, or the
 * string about to be sent back. Null where /proc is not there (the watchdog then has nothing to
 * measure and only the heap cap applies).
 */
export function residentBytes(pid: number): number | null {
  return statusField(pid, 'VmRSS');
}

/** The kernel's high-water mark of the process's resident memory since the last reset. */
export function peakResidentBytes(pid: number): number | null {
  return statusField(pid, 'VmHWM');
}

/** Resets the high-water mark to the current resident size (writing 5 to clear_refs, Linux ≥ 4.0). */
export function resetPeakResident(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Older kernels or no /proc: the peak then covers the process's whole life, a safe over-estimate.
  }
}

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return null;
  }
  const at = status.indexOf(`${field}:`);
  if (at < 0) return null;
  const kilobytes = Number.parseInt(status.slice(at + field.length + 1).trimStart(), 10);
  return Number.isFinite(kilobytes) ? kilobytes * 1024 : null;
}
