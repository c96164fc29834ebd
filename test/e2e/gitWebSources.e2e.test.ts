import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { addSource, type SourceDeps } from '../../client/sources';
import { sourceScheduleId, type SyncReport } from '../../contracts/sources';
import { findSource } from '../../db/repositories/sources';
import { hybridSearch } from '../../search/hybridSearch';
import { eventually } from '../../testkit/harness/ingestHelpers';
import { testConfig } from '../../testkit/harness/testConfig';
import { startTestWorker, type TestWorker } from '../../testkit/harness/testWorker';

// A git repository and a website synced through the whole workflow on the real stack: a local bare
// repository (a commit changes one file and deletes another) and a local HTTP server with a
// sitemap and a robots.txt (a disallowed page is never ingested).

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-git-web-'));
const origin = path.join(root, 'manuals.git');
const work = path.join(root, 'work');
let tw: TestWorker;
let deps: SourceDeps;
let server: http.Server;
let site = '';

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: work,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

const page = (topic: string, extra = '') =>
  `# ${topic} guide\n\n## Use\n\nThe ${topic} guide explains the ${topic} lever and its spring.\n\n## Care\n\nClean the ${topic} parts weekly. ${extra}\n`;

const pages: Record<string, string> = {
  '/docs/a.html': '<html><body><h1>Orchid guide</h1><p>The orchid greenhouse needs humid air.</p></body></html>',
  '/docs/b.html': '<html><body><h1>Cactus guide</h1><p>The cactus needs dry sand and sun.</p></body></html>',
  '/docs/private/c.html': '<html><body><h1>Secret</h1><p>The walnut vault code.</p></body></html>',
};

beforeAll(async () => {
  execFileSync('git', ['init', '--bare', '-b', 'main', origin], { stdio: 'ignore' });
  execFileSync('git', ['clone', origin, work], { stdio: 'ignore' });
  fs.mkdirSync(path.join(work, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(work, 'docs/pump.md'), page('pump'));
  fs.writeFileSync(path.join(work, 'docs/valve.md'), page('valve'));
  fs.writeFileSync(path.join(work, 'README.txt'), 'not included');
  git('add', '.');
  git('commit', '-m', 'first');
  git('push', 'origin', 'HEAD:main');
  server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/robots.txt') return res.end('User-agent: *\nDisallow: /docs/private/\n');
    if (url === '/sitemap.xml') {
      const locs = Object.keys(pages).map((p) => `<url><loc>${site}${p}</loc></url>`);
      res.setHeader('content-type', 'application/xml');
      return res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.join('')}</urlset>`,
      );
    }
    const body = pages[url];
    if (body === undefined) return res.writeHead(404).end();
    res.setHeader('content-type', 'text/html');
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  tw = await startTestWorker({ config: testConfig({ SLUICE_SOURCE_FOLDER_ROOTS: root }) });
  deps = { client: tw.client, db: tw.adapters.db, config: tw.config };
});
afterAll(async () => {
  await tw.shutdown();
  server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function report(sourceId: string, previous: string | null): Promise<SyncReport> {
  const row = await eventually(
    () => findSource(tw.adapters.db, sourceId),
    (r) => r?.last_sync != null && r.last_sync.syncId !== previous,
    120_000,
    200,
  );
  return row!.last_sync!;
}

it('follows a git branch: its files under the globs, a changed file replaced, a deleted one removed', async () => {
  const scope = { userId: `user-${randomUUID()}`, datasetId: 'git' };
  const source = await addSource(deps, scope, {
    kind: 'git',
    settings: { url: pathToFileURL(origin).href, branch: 'main', include: ['docs/**'] },
    schedule: { everySeconds: 3600 },
  });
  const first = await report(source.id, null);
  expect(first).toMatchObject({ listed: 2, added: 2, failed: 0 });

  fs.writeFileSync(path.join(work, 'docs/pump.md'), page('pump', 'Replace the pump gasket every spring.'));
  fs.rmSync(path.join(work, 'docs/valve.md'));
  git('commit', '-am', 'second');
  git('push', 'origin', 'HEAD:main');
  await tw.client.schedule.getHandle(sourceScheduleId(source.id)).trigger();
  const second = await report(source.id, first.syncId);
  expect(second).toMatchObject({ listed: 1, updated: 1, deleted: 1, failed: 0 });
  const hits = await hybridSearch(tw.adapters, scope, 'pump gasket spring', 3);
  expect(hits[0]?.text).toContain('gasket');
  expect(await hybridSearch(tw.adapters, scope, 'valve lever', 5)).not.toContainEqual(
    expect.objectContaining({ text: expect.stringContaining('valve') }),
  );
});

it('follows a website by its sitemap, leaving out what robots.txt disallows', async () => {
  const scope = { userId: `user-${randomUUID()}`, datasetId: 'web' };
  const source = await addSource(deps, scope, {
    kind: 'web',
    settings: { sitemap: `${site}/sitemap.xml`, prefix: `${site}/docs/` },
    schedule: { everySeconds: 3600 },
  });
  const first = await report(source.id, null);
  expect(first).toMatchObject({ listed: 2, added: 2, failed: 0 });
  expect((await hybridSearch(tw.adapters, scope, 'orchid greenhouse humid', 3))[0]?.text).toContain('orchid');
  expect(await hybridSearch(tw.adapters, scope, 'walnut vault code', 5)).not.toContainEqual(
    expect.objectContaining({ text: expect.stringContaining('walnut') }),
  );
});
