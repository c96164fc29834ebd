import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * Tesseract 5 from Debian (tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-chi-sim), the engine
 * sluice measured against and did not pick: one page image through the CLI on one thread
 * (OMP_THREAD_LIMIT=1, so CPU seconds are one core's), its text and the CPU time the child used,
 * read from bash's `times` (user and system time of the shell's children).
 */
export function tesseractPage(pngPath: string, language: 'eng' | 'chi_sim'): { text: string; cpuSeconds: number } {
  const script = 'tesseract "$1" "$2" -l "$3" --psm 3 2>/dev/null; times';
  const out = execFileSync('bash', ['-c', script, 'bash', pngPath, `${pngPath}.out`, language], {
    env: { PATH: '/usr/bin:/bin', OMP_THREAD_LIMIT: '1' },
    encoding: 'utf8',
  });
  const children = out.trim().split('\n').pop() ?? '';
  const cpuSeconds = children
    .split(/\s+/)
    .map((part) => /^(\d+)m([\d.]+)s$/.exec(part))
    .reduce((sum, match) => sum + (match ? Number(match[1]) * 60 + Number(match[2]) : 0), 0);
  const text = readFileSync(`${pngPath}.out.txt`, 'utf8');
  return { text, cpuSeconds };
}

export function tesseractAvailable(): boolean {
  try {
    return execFileSync('tesseract', ['--list-langs'], { encoding: 'utf8', stdio: 'pipe' }).includes('chi_sim');
  } catch {
    return false;
  }
}
