import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { pinnedPackageTree } from './fetchPackage';
import { PINNED_PACKAGES } from './pinnedPackages';

/**
 * Where an eval document comes from: a file inside a pinned Debian package, or an office file
 * written from one by a real office writer (pandoc for DOCX and PPTX, openpyxl for XLSX), the way
 * users' files are made by tools we do not control.
 */
export type DocSource =
  | { kind: 'file'; pkg: string; relPath: string }
  | { kind: 'pandoc'; pkg: string; inputs: string[]; to: 'docx' | 'pptx'; name: string; from?: 'html' | 'man' }
  | { kind: 'xlsx'; pkg: string; csv: string; sheet: string; name: string };

const CSV_TO_XLSX = path.join(__dirname, 'csvToXlsx.py');
/** Debian's python3-openpyxl lives in the system interpreter, not in any pyenv on PATH. */
const SYSTEM_PYTHON = '/usr/bin/python3';

function writeOnce(target: string, write: (partial: string) => void): string {
  if (existsSync(target)) return target;
  mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.partial${path.extname(target)}`;
  write(partial);
  renameSync(partial, target);
  return target;
}

/**
 * Man pages ship gzipped, which pandoc does not read: they are unpacked in memory and given to
 * pandoc on stdin, one after the other, each page's own .TH starting its part.
 */
function manToOffice(inputs: readonly string[], to: 'docx' | 'pptx', partial: string): void {
  const pages = inputs.map((file) => {
    const bytes = readFileSync(file);
    return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  });
  execFileSync('pandoc', ['--from=man', `--to=${to}`, '--output', partial], {
    input: pages.join('\n'),
    stdio: ['pipe', 'pipe', 'pipe'],
    timeout: 300_000,
  });
}

/** The absolute path of the document, fetching and writing it into `cacheDir` when missing. */
export function materialise(cacheDir: string, source: DocSource): string {
  const tree = pinnedPackageTree(cacheDir, source.pkg);
  const inTree = (relPath: string): string => {
    const file = path.join(tree, relPath);
    if (!existsSync(file)) throw new Error(`${relPath} is not in ${source.pkg} (looked in ${tree})`);
    return file;
  };
  if (source.kind === 'file') return inTree(source.relPath);
  const version = PINNED_PACKAGES[source.pkg]?.version ?? 'unpinned';
  const built = path.join(cacheDir, 'built', `${source.pkg}_${version}`);
  if (source.kind === 'pandoc') {
    const inputs = source.inputs.map(inTree);
    const target = path.join(built, `${source.name}.${source.to}`);
    if (source.from === 'man') return writeOnce(target, (partial) => manToOffice(inputs, source.to, partial));
    return writeOnce(target, (partial) =>
      execFileSync('pandoc', ['--from=html', `--to=${source.to}`, '--output', partial, ...inputs], {
        stdio: 'pipe',
        timeout: 300_000,
      }),
    );
  }
  const csv = inTree(source.csv);
  return writeOnce(path.join(built, `${source.name}.xlsx`), (partial) =>
    execFileSync(SYSTEM_PYTHON, [CSV_TO_XLSX, csv, partial, source.sheet], { stdio: 'pipe', timeout: 120_000 }),
  );
}
