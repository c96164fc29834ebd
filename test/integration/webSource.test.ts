import http from 'node:http';
import type net from 'node:net';
import zlib from 'node:zlib';
import { webSettingsSchema } from '../../contracts/sources';
import { SourceUnavailable, type SourceEntry, type SourceReader } from '../../stores/sources/sourceReader';
import { createWebSource } from '../../stores/sources/webSource';
import { testConfig } from '../../testkit/harness/testConfig';

// The web reader against a real local site: a sitemap index, linked pages, a robots.txt that
// disallows a folder, ETag and Last-Modified headers, a page that is gone. Loopback is reached
// because the test config allow-lists 127.0.0.1, as a deployment would an internal site.

const policy = testConfig().outbound;
const requested: string[] = [];
let base = '';

const html = (body: string) => `<!doctype html><html><body>${body}</body></html>`;

function page(res: http.ServerResponse, body: string, headers: Record<string, string> = {}) {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '/';
  requested.push(url);
  const urlset = (paths: string[][]) =>
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths
      .map(([p, lastmod]) => `<url><loc>${base}${p}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`)
      .join('')}</urlset>`;
  switch (url) {
    case '/robots.txt':
      res.end('User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /site/private\nAllow: /site/private/open\n');
      return;
    case '/sitemap.xml':
      res.end(
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          `<sitemap><loc>${base}/sitemap-1.xml</loc></sitemap><sitemap><loc>${base}/sitemap-2.xml.gz</loc></sitemap></sitemapindex>`,
      );
      return;
    case '/sitemap-1.xml':
      res.end(
        urlset([
          ['/site/b.html'],
          ['/site/a.html', '2026-11-30T10:00:00Z'],
          ['/site/private/secret.html'],
          ['/outside.html'],
        ]),
      );
      return;
    case '/sitemap-2.xml.gz':
      res.end(zlib.gzipSync(urlset([['/site/c.html', '2026-12-01']])));
      return;
    case '/site/index.html':
      return page(
        res,
        html(
          '<a href="a.html">a</a> <a href="b.html#part">b</a> <a href="private/secret.html">no</a> ' +
            '<a href="private/open.html">open</a> <a href="../outside.html">out</a> <a href="http://example.com/">ext</a> ' +
            '<a href="doc.pdf">pdf</a> <a href="mailto:x@example.com">mail</a>',
        ),
      );
    case '/site/a.html':
      return page(res, html('<a href="b.html">b</a><a href="c.html">c</a><a href="index.html">home</a>'), {
        etag: '"a1"',
      });
    case '/site/b.html':
      return page(res, html('<a href="missing.html">gone</a><a href="moved.html">moved</a>'));
    case '/site/c.html':
      return page(res, html('<p>c</p>'), { 'last-modified': 'Tue, 01 Dec 2026 08:00:00 GMT' });
    case '/site/private/open.html':
      return page(res, html('<p>open</p>'));
    case '/site/doc.pdf':
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '8' });
      res.end('%PDF-1.4');
      return;
    case '/site/moved.html':
      res.writeHead(301, { location: '/site/a.html' });
      res.end();
      return;
    default:
      res.writeHead(404);
      res.end('not here');
  }
});

function reader(settings: Record<string, unknown>): SourceReader {
  return createWebSource(webSettingsSchema.parse({ prefix: `${base}/site/`, ...settings }), policy);
}

async function listAll(source: SourceReader, limit: number): Promise<{ entries: SourceEntry[]; pages: number }> {
  const entries: SourceEntry[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const result = await source.list(cursor, limit);
    entries.push(...result.entries);
    cursor = result.next;
    pages++;
  } while (cursor !== null);
  return { entries, pages };
}

async function refusal(promise: Promise<unknown>): Promise<SourceUnavailable> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceUnavailable);
  return error as SourceUnavailable;
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  requested.length = 0;
});

describe('web source', () => {
  it('lists a sitemap index’s pages under the prefix that robots.txt allows, lastmod as mtime, in pages', async () => {
    const { entries, pages } = await listAll(reader({ sitemap: `${base}/sitemap.xml` }), 2);
    expect(entries.map((e) => e.path)).toEqual([`${base}/site/a.html`, `${base}/site/b.html`, `${base}/site/c.html`]);
    expect(pages).toBe(2);
    expect(entries[0]?.mtime?.toISOString()).toBe('2026-11-30T10:00:00.000Z');
    expect(entries[1]?.mtime).toBeNull();
    expect(entries[2]?.mtime?.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(entries.every((e) => e.etag === null)).toBe(true);
    // The pages are not fetched to list them, the disallowed one never.
    expect(requested.filter((u) => u.startsWith('/site/'))).toEqual([]);
  });

  it('crawls from a start URL within the prefix: robots, gone pages and redirects skipped, ETag kept', async () => {
    const { entries, pages } = await listAll(reader({ startUrl: `${base}/site/index.html` }), 3);
    expect(entries.map((e) => e.path.slice(base.length))).toEqual([
      '/site/a.html',
      '/site/b.html',
      '/site/c.html',
      '/site/doc.pdf',
      '/site/index.html',
      '/site/private/open.html',
    ]);
    expect(pages).toBe(2);
    const byPath = new Map(entries.map((e) => [e.path.slice(base.length), e]));
    expect(byPath.get('/site/a.html')?.etag).toBe('"a1"');
    expect(byPath.get('/site/b.html')?.etag).toBeNull();
    expect(byPath.get('/site/c.html')?.mtime?.toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(byPath.get('/site/doc.pdf')?.sizeBytes).toBe(8);
    expect(byPath.get('/site/index.html')?.sizeBytes).toBeGreaterThan(100);
    expect(requested).not.toContain('/site/private/secret.html');
    expect(requested).not.toContain('/outside.html');
    // The later page came from the listing kept in memory: the site was crawled once.
    expect(requested.filter((u) => u === '/site/index.html')).toHaveLength(1);
  });

  it('stops at maxPages, breadth first', async () => {
    const { entries } = await listAll(reader({ startUrl: `${base}/site/index.html`, maxPages: 2 }), 10);
    expect(entries.map((e) => e.path.slice(base.length))).toEqual(['/site/a.html', '/site/index.html']);
  });

  it('stops at maxBytes of pages read', async () => {
    const { entries } = await listAll(reader({ startUrl: `${base}/site/index.html`, maxBytes: 400 }), 10);
    expect(entries.map((e) => e.path.slice(base.length))).toEqual(['/site/index.html']);
  });

  it('opens a page of the prefix, and refuses any other URL', async () => {
    const source = reader({ startUrl: `${base}/site/index.html` });
    const chunks: Buffer[] = [];
    for await (const chunk of await source.open(`${base}/site/c.html`)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString('utf8')).toContain('<p>c</p>');
    expect((await refusal(source.open(`${base}/outside.html`))).permanent).toBe(true);
    expect((await refusal(source.open(`${base}/site/missing.html`))).permanent).toBe(true);
  });

  it('refuses a start URL the site answers no page for, permanently', async () => {
    const error = await refusal(reader({ startUrl: `${base}/site/missing.html` }).list(null, 10));
    expect(error.permanent).toBe(true);
  });

  it('waits for a server that is down: a transient SourceUnavailable', async () => {
    const down = http.createServer();
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const port = (down.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => down.close(() => resolve()));
    const source = createWebSource(
      webSettingsSchema.parse({ prefix: `http://127.0.0.1:${port}/`, startUrl: `http://127.0.0.1:${port}/` }),
      policy,
    );
    const error = await refusal(source.list(null, 10));
    expect(error.permanent).toBe(false);
  });

  it('refuses loopback when the outbound policy does, permanently', async () => {
    const strict = createWebSource(
      webSettingsSchema.parse({ prefix: `${base}/site/`, startUrl: `${base}/site/index.html` }),
      { allowPrivate: false },
    );
    const error = await refusal(strict.list(null, 10));
    expect(error.permanent).toBe(true);
    expect(requested).toEqual([]);
  });
});
