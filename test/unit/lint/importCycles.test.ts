import fs from 'node:fs';
import path from 'node:path';

// ESLint's import-x/no-cycle holds value imports to a DAG; it skips `import type`, which is erased at
// run time but still ties two files into one unit a reader cannot take apart. This check walks every
// static import and re-export of the tree, type-only ones included, and finds strongly connected sets.
const root = path.resolve(__dirname, '../../..');
const SKIP = new Set(['node_modules', 'dist', '.sluice', '.git', 'bench-results', 'test-artifacts']);
const STATIC_IMPORT = /(?:^|\n)[ \t]*(?:import|export)[ \t][^;]*?from[ \t]*['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function resolveImport(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate)) return candidate;
  return null;
}

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = [...fs.readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)]
      .map((m) => resolveImport(file, m[1]!))
      .filter((t): t is string => t !== null);
    graph.set(file, targets);
  }
  return graph;
}

/** Tarjan's strongly connected components, iteratively (no recursion depth limit); sets of size > 1 are cycles. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const members: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          members.push(member);
        } while (member !== frame.node);
        if (members.length > 1) cycles.push(members.map((m) => path.relative(root, m)).sort());
      }
    }
  }
  return cycles;
}

it('finds a cycle through a type-only import', () => {
  const a = path.join(root, 'a.ts');
  const b = path.join(root, 'b.ts');
  const c = path.join(root, 'c.ts');
  expect(
    cyclesOf(
      new Map([
        [a, [b]],
        [b, [c]],
        [c, [a]],
      ]),
    ),
  ).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  expect(
    cyclesOf(
      new Map([
        [a, [b]],
        [b, [c]],
        [c, []],
      ]),
    ),
  ).toEqual([]);
  expect('import type { X } from "./b";\n'.match(STATIC_IMPORT)).not.toBeNull();
});

it('has no import cycle anywhere in the tree, type-only imports included', () => {
  const graph = importGraph(sourceFiles(root));
  expect(graph.size).toBeGreaterThan(300);
  expect(cyclesOf(graph)).toEqual([]);
});
