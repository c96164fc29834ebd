import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { WebSettings } from '../../contracts/sources';
import type { OutboundPolicy } from '../../outbound/outboundHttp';
import { SourceUnavailable, type SourceEntry, type SourceReader } from './sourceReader';
import { crawlEntries } from './webCrawl';
import { pageUrl, statusFailure, webGet } from './webFetch';
import { startListing } from './webListing';
import { sitemapEntries } from './webSitemap';

/** Reading one page for ingestion: large files are allowed more time than a listing's requests. */
const OPEN_TIMEOUT_MS = 5 * 60_000;
/** Past this, whatever maxBytes says, a page is refused: the upload limits apply after anyway. */
const OPEN_CAP_BYTES = 1024 * 1024 * 1024;

/**
 * Listings computed from the start of a sync, kept for its later pages: a crawl costs hundreds of
 * requests, so a page after the first reads this copy when the same worker serves it (and
 * recomputes otherwise). Few and short-lived, so memory stays bounded.
 */
const CACHE_TTL_MS = 30 * 60_000;
const MAX_CACHED = 8;
const listings = new Map<string, { at: number; entries: SourceEntry[] }>();

function remember(key: string, entries: SourceEntry[]): void {
  listings.delete(key);
  listings.set(key, { at: Date.now(), entries });
  for (const old of listings.keys()) {
    if (listings.size <= MAX_CACHED) break;
    listings.delete(old);
  }
}

function recalled(key: string): SourceEntry[] | null {
  const kept = listings.get(key);
  return kept && Date.now() - kept.at < CACHE_TTL_MS ? kept.entries : null;
}

/** The body as a stream that fails, rather than ends short, past `capBytes`. */
function cappedStream(body: NodeReadableStream<Uint8Array>, capBytes: number, what: string): Readable {
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > capBytes) done(new SourceUnavailable(`${what} is larger than ${capBytes} bytes`, true));
      else done(null, chunk);
    },
  });
  const source = Readable.fromWeb(body);
  source.on('error', (error) => meter.destroy(error));
  meter.on('close', () => source.destroy());
  return source.pipe(meter);
}

/**
 * A website: the pages its sitemap lists, or those a crawl from a start URL reaches, within a URL
 * prefix and as robots.txt allows, every request through the outbound policy. An entry's path is
 * the page's full URL without its fragment: stable, sorted as text, and what `open` fetches.
 */
export function createWebSource(settings: WebSettings, policy: OutboundPolicy): SourceReader {
  const name = `web ${settings.sitemap ?? settings.startUrl ?? ''} within ${settings.prefix}`;
  const key = JSON.stringify(settings);
  const prefix = pageUrl(settings.prefix);

  async function computed(): Promise<SourceEntry[]> {
    const listing = await startListing(settings, policy);
    const entries = settings.sitemap
      ? await sitemapEntries(listing, settings.sitemap)
      : await crawlEntries(listing, settings.startUrl ?? '');
    return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  return {
    name,
    async list(cursor, limit) {
      let entries = cursor === null ? null : recalled(key);
      if (entries === null) {
        entries = await computed();
        remember(key, entries);
      }
      const from = cursor === null ? 0 : entries.findIndex((e) => e.path > cursor);
      const rest = from < 0 ? [] : entries.slice(from);
      const page = rest.slice(0, limit);
      return { entries: page, next: rest.length > limit ? (page.at(-1)?.path ?? null) : null };
    },
    async open(p): Promise<Readable> {
      const url = pageUrl(p);
      if (url === null || prefix === null || !url.startsWith(prefix))
        throw new SourceUnavailable(`${p} is not a page of ${name}`, true);
      const response = await webGet(policy, url, OPEN_TIMEOUT_MS);
      if (response === 'redirect') throw new SourceUnavailable(`${url} now redirects`, true);
      if (!response.ok) {
        await response.body?.cancel();
        throw statusFailure(response.status, url);
      }
      const cap = Math.min(settings.maxBytes, OPEN_CAP_BYTES);
      const declared = Number(response.headers.get('content-length') ?? '0');
      if (declared > cap) {
        await response.body?.cancel();
        throw new SourceUnavailable(`${url} is larger than ${cap} bytes`, true);
      }
      if (!response.body) return Readable.from([]);
      return cappedStream(response.body as NodeReadableStream<Uint8Array>, cap, url);
    },
  };
}
