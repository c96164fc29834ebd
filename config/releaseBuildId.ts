import fs from 'node:fs';
import path from 'node:path';

/**
 * The release a worker runs, as its Worker Versioning build id: the package version plus the
 * git commit when running from a checkout ("0.1.0+1d74781"), or the version alone when there is
 * no repository (an image: its Dockerfile passes SLUICE_BUILD_ID from the build instead).
 * Two builds of one commit get the same id, so a restarted worker rejoins its own version.
 */
export function releaseBuildId(root: string): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version?: string };
  const version = pkg.version ?? '0.0.0';
  const sha = gitCommit(root);
  return sha ? `${version}+${sha.slice(0, 12)}` : version;
}

/** HEAD's commit read from the files (no git binary in an image): a worktree's `.git` is a file naming its gitdir. */
function gitCommit(root: string): string | null {
  try {
    let gitDir = path.join(root, '.git');
    if (fs.statSync(gitDir).isFile()) {
      const pointer = /^gitdir: (.+)$/m.exec(fs.readFileSync(gitDir, 'utf8'));
      if (!pointer?.[1]) return null;
      gitDir = path.resolve(root, pointer[1].trim());
    }
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref: (.+)$/.exec(head)?.[1];
    if (!ref) return /^[0-9a-f]{40}$/.test(head) ? head : null;
    // Branch refs live in the common dir (a worktree's commondir file), loose or packed.
    const common = fs.existsSync(path.join(gitDir, 'commondir'))
      ? path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim())
      : gitDir;
    for (const dir of [gitDir, common]) {
      const loose = path.join(dir, ref);
      if (fs.existsSync(loose)) return fs.readFileSync(loose, 'utf8').trim();
    }
    const packed = fs.readFileSync(path.join(common, 'packed-refs'), 'utf8');
    return new RegExp(`^([0-9a-f]{40}) ${ref.replace(/[/.]/g, '\\$&')}$`, 'm').exec(packed)?.[1] ?? null;
  } catch {
    return null;
  }
}
