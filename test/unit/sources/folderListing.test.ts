import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createFolderSource } from '../../../stores/sources/folderSource';
import type { SourceReader } from '../../../stores/sources/sourceReader';

// A folder's listing pages: every file once, in path order, whether the pages come from one
// reader (its kept names) or from readers on different workers (each walking again).

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'folder-listing-'));
  for (let i = 0; i < 23; i++) {
    const dir = path.join(root, `d${i % 3}`);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `f${String(i).padStart(2, '0')}.md`), `file ${i}`);
  }
  await fs.writeFile(path.join(root, 'skip.bin'), 'not included');
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

async function listAll(readers: () => SourceReader): Promise<string[]> {
  const paths: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await readers().list(cursor, 5);
    paths.push(...page.entries.map((e) => e.path));
    cursor = page.next;
  } while (cursor !== null);
  return paths;
}

const reader = () => createFolderSource({ path: root, include: ['**/*.md'] }, [os.tmpdir()]);

it('lists every included file once, in order, from one reader and from a reader per page', async () => {
  const one = reader();
  const fromOne = await listAll(() => one);
  expect(fromOne).toHaveLength(23);
  expect([...fromOne].sort()).toEqual(fromOne);
  expect(new Set(fromOne).size).toBe(23);
  expect(await listAll(reader)).toEqual(fromOne);
});

it('starts a new listing on a cursor it did not hand out, and sees files added since', async () => {
  const one = reader();
  const first = await one.list(null, 5);
  await fs.writeFile(path.join(root, 'd0', 'zz-new.md'), 'new');
  const again = await one.list(null, 100);
  expect(again.entries.map((e) => e.path)).toContain('d0/zz-new.md');
  const fromOther = await reader().list(first.next, 100);
  expect(fromOther.entries.map((e) => e.path)[0]! > first.next!).toBe(true);
  expect(fromOther.entries).toHaveLength(24 - 5);
});
