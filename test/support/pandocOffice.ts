import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real DOCX or PPTX written by pandoc (Debian's, installed by .ci/run) from markdown, with the
 * pictures it references written beside it first, so pandoc embeds them as Word and PowerPoint
 * do. Not our own zip fixture: this is the package layout users' files have.
 */
export function pandocOffice(markdown: string, format: 'docx' | 'pptx', pictures: Record<string, Buffer>): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-pandoc-'));
  try {
    for (const [name, bytes] of Object.entries(pictures)) writeFileSync(path.join(dir, name), bytes);
    writeFileSync(path.join(dir, 'source.md'), markdown);
    execFileSync('pandoc', ['source.md', '-o', `out.${format}`], { cwd: dir, stdio: 'pipe', timeout: 60_000 });
    return readFileSync(path.join(dir, `out.${format}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
