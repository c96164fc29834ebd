import zlib from 'node:zlib';
import { Parser } from 'htmlparser2';
import { ResponseTooLargeError } from '../../outbound/cappedBody';
import { robotsAllow } from './robotsTxt';
import { SourceUnavailable, type SourceEntry } from './sourceReader';
import { pageUrl, readBody, statusFailure, webGet } from './webFetch';
import type { WebListing } from './webListing';

/** The sitemap protocol's own limit for one file, uncompressed. */
const SITEMAP_CAP_BYTES = 50 * 1024 * 1024;
/** An index of indexes is allowed once more than the protocol asks, no deeper. */
const MAX_DEPTH = 2;
const MAX_SITEMAPS = 500;

interface ParsedSitemap {
  sitemaps: string[];
  urls: { loc: string; lastmod: string | null }[];
}

/** `<sitemapindex>` children and `<urlset>` entries, namespace prefixes ignored. */
function parseSitemap(xml: string): ParsedSitemap {
  const out: ParsedSitemap = { sitemaps: [], urls: [] };
  let field: 'loc' | 'lastmod' | null = null;
  let loc = '';
  let lastmod = '';
  const local = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
  const parser = new Parser(
    {
      onopentag(name) {
        const tag = local(name);
        if (tag === 'url' || tag === 'sitemap') loc = lastmod = '';
        field = tag === 'loc' || tag === 'lastmod' ? tag : null;
      },
      ontext(text) {
        if (field === 'loc') loc += text;
        else if (field === 'lastmod') lastmod += text;
      },
      onclosetag(name) {
        const tag = local(name);
        field = null;
        if (tag === 'sitemap' && loc.trim()) out.sitemaps.push(loc.trim());
        if (tag === 'url' && loc.trim()) out.urls.push({ loc: loc.trim(), lastmod: lastmod.trim() || null });
      },
    },
    { xmlMode: true },
  );
  parser.end(xml);
  return out;
}

async function fetchSitemap(listing: WebListing, url: string): Promise<string> {
  const response = await webGet(listing.policy, url);
  if (response === 'redirect') throw new SourceUnavailable(`the sitemap ${url} redirects: give its final URL`, true);
  if (!response.ok) {
    await response.body?.cancel();
    throw statusFailure(response.status, `the sitemap ${url}`);
  }
  const cap = Math.min(SITEMAP_CAP_BYTES, listing.bytesLeft);
  let body: Buffer;
  try {
    body = await readBody(response, cap, `the sitemap ${url}`);
  } catch (error) {
    if (error instanceof ResponseTooLargeError)
      throw new SourceUnavailable(
        `the sitemap ${url} is larger than ${cap} bytes (maxBytes, or the protocol's limit)`,
        true,
      );
    throw error;
  }
  listing.bytesLeft -= body.length;
  // sitemap.xml.gz: gzip is the one compression the protocol names.
  if (body[0] !== 0x1f || body[1] !== 0x8b) return body.toString('utf8');
  try {
    return zlib.gunzipSync(body, { maxOutputLength: SITEMAP_CAP_BYTES }).toString('utf8');
  } catch (error) {
    throw new SourceUnavailable(`the sitemap ${url} is not valid gzip or too large`, true, { cause: error });
  }
}

/**
 * The pages a sitemap lists (following sitemap index files, depth-bounded), those under the prefix
 * and allowed by robots.txt, in the sitemaps' order up to maxPages; `<lastmod>` is the mtime. The
 * pages themselves are not fetched: no etag, and size 0 (the listing cannot know it).
 */
export async function sitemapEntries(listing: WebListing, sitemap: string): Promise<SourceEntry[]> {
  const pages = new Map<string, SourceEntry>();
  const seen = new Set<string>([sitemap]);
  let level = [sitemap];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const url of level) {
      const parsed = parseSitemap(await fetchSitemap(listing, url));
      for (const child of parsed.sitemaps) {
        const resolved = pageUrl(child, url);
        if (resolved === null || seen.has(resolved) || seen.size >= MAX_SITEMAPS) continue;
        seen.add(resolved);
        next.push(resolved);
      }
      for (const { loc, lastmod } of parsed.urls) {
        if (pages.size >= listing.maxPages) break;
        const page = pageUrl(loc, url);
        if (page === null || !listing.under(page) || pages.has(page) || !robotsAllow(listing.robots, new URL(page)))
          continue;
        const time = lastmod === null ? null : new Date(lastmod);
        const mtime = time !== null && !Number.isNaN(time.getTime()) ? time : null;
        pages.set(page, { path: page, etag: null, mtime, sizeBytes: 0 });
      }
    }
    level = next;
  }
  return [...pages.values()];
}
