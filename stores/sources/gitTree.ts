import type { GitRun } from './gitProcess';
import { spawnGit } from './gitProcess';
import { SourceUnavailable } from './sourceReader';

/** A tree listing is read whole for every page: past this many entries the source is refused, not read for minutes. */
export const MAX_TREE_ENTRIES = 500_000;

export interface TreeEntry {
  /** `100644`, `100755` (files), `120000` (symbolic link), `160000` (submodule). */
  mode: string;
  path: string;
  /** The blob id, which changes exactly when the file's bytes do. */
  id: string;
  size: number;
}

// `<mode> <type> <id> <size, space-padded>\t<path>`; -z leaves the path unquoted.
const RECORD = /^(\d{6}) \w+ ([0-9a-f]{40,64}) +(\d+|-)\t([\s\S]+)$/;

/**
 * Streams `git ls-tree -r -l -z` of `commit` (only `onlyPath`, taken literally, when given) to
 * `onEntry`, parsed record by record so a large tree is never held as one string.
 */
export async function readTree(
  commit: string,
  run: GitRun,
  onEntry: (entry: TreeEntry) => void,
  onlyPath?: string,
): Promise<void> {
  const args = ['--literal-pathspecs', 'ls-tree', '-r', '-l', '-z', '--full-tree', commit];
  const git = spawnGit(onlyPath === undefined ? args : [...args, '--', onlyPath], run);
  let pending: Buffer = Buffer.alloc(0);
  let count = 0;
  for await (const chunk of git.stdout as AsyncIterable<Buffer>) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let end: number;
    while ((end = pending.indexOf(0)) >= 0) {
      const match = RECORD.exec(pending.subarray(0, end).toString('utf8'));
      pending = pending.subarray(end + 1);
      if (!match) continue;
      if (++count > MAX_TREE_ENTRIES) {
        git.stop();
        throw new SourceUnavailable(`the branch has more than ${MAX_TREE_ENTRIES} files`, true);
      }
      const [, mode = '', id = '', size = '', path = ''] = match;
      onEntry({ mode, id, path, size: size === '-' ? 0 : Number(size) });
    }
  }
  await git.done;
}
