import { Parser } from 'htmlparser2';
import { ResponseTooLargeError } from '../../outbound/cappedBody';
import { robotsAllow } from './robotsTxt';
import { SourceUnavailable, type SourceEntry } from './sourceReader';
import { pageUrl, readBody, statusFailure, webGet } from './webFetch';
import type { WebListing } from './webListing';

/** A page past this is not read (nor listed): a crawl reads pages whole to find their links. */
const PAGE_CAP_BYTES = 20 * 1024 * 1024;
/** Pages fetched at once; their results are taken in queue order, so the crawl stays deterministic. */
const CONCURRENCY = 4;
/** The listing activity has ten minutes: a crawl that cannot end in time must be made smaller, not retried. */
const DEADLINE_MS = 8 * 60_000;

type Fetched =
  | { kind: 'page'; entry: SourceEntry; links: string[]; bytesRead: number }
  | { kind: 'skipped' }
  | { kind: 'over-budget' };

/** The `<a href>` targets of an HTML page, resolved against its URL (or its `<base href>`). */
function linksOf(html: string, url: string): string[] {
  const hrefs: string[] = [];
  let base = url;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === 'base' && attributes.href && base === url) base = pageUrl(attributes.href, url) ?? url;
      if (name === 'a' && attributes.href) hrefs.push(attributes.href);
    },
  });
  parser.end(html);
  return hrefs.map((href) => pageUrl(href, base)).filter((link): link is string => link !== null);
}

/**
 * One page of the crawl. Gone pages (4xx) and redirects (not followed) are skipped; a server
 * that fails is waited for, since skipping its pages would delete their documents. Only HTML
 * bodies are read (for links); another type is listed by its headers alone.
 */
async function fetchPage(listing: WebListing, url: string, capBytes: number): Promise<Fetched> {
  const response = await webGet(listing.policy, url);
  if (response === 'redirect') return { kind: 'skipped' };
  if (!response.ok) {
    await response.body?.cancel();
    const failure = statusFailure(response.status, url);
    if (failure.permanent) return { kind: 'skipped' };
    throw failure;
  }
  const etag = response.headers.get('etag');
  const modified = response.headers.get('last-modified');
  const time = modified === null ? null : new Date(modified);
  const mtime = time !== null && !Number.isNaN(time.getTime()) ? time : null;
  const type = response.headers.get('content-type') ?? '';
  if (!/^\s*(text\/html|application\/xhtml\+xml)/i.test(type)) {
    await response.body?.cancel();
    const length = Number(response.headers.get('content-length') ?? '0');
    return { kind: 'page', entry: { path: url, etag, mtime, sizeBytes: length || 0 }, links: [], bytesRead: 0 };
  }
  try {
    const body = await readBody(response, capBytes, url);
    const entry = { path: url, etag, mtime, sizeBytes: body.length };
    return { kind: 'page', entry, links: linksOf(body.toString('utf8'), url), bytesRead: body.length };
  } catch (error) {
    if (!(error instanceof ResponseTooLargeError)) throw error;
    return capBytes < PAGE_CAP_BYTES ? { kind: 'over-budget' } : { kind: 'skipped' };
  }
}

/**
 * A breadth-first crawl from `start` within the prefix, robots.txt respected: up to maxPages
 * pages listed, maxBytes of HTML read, and twice maxPages requests made (links to gone pages
 * cost requests without adding pages). Links are not followed out of the prefix.
 */
export async function crawlEntries(listing: WebListing, start: string): Promise<SourceEntry[]> {
  const first = pageUrl(start);
  if (first === null || !listing.under(first))
    throw new SourceUnavailable(`the start URL ${start} is not under the prefix`, true);
  if (!robotsAllow(listing.robots, new URL(first)))
    throw new SourceUnavailable(`robots.txt disallows the start URL ${start}`, true);
  const deadline = Date.now() + DEADLINE_MS;
  const maxRequests = listing.maxPages * 2;
  const queue = [first];
  const seen = new Set(queue);
  const entries: SourceEntry[] = [];
  let requests = 0;
  let head = 0;
  while (head < queue.length && entries.length < listing.maxPages && requests < maxRequests) {
    if (Date.now() > deadline)
      throw new SourceUnavailable(`the crawl did not end in ${DEADLINE_MS / 60_000} minutes: lower maxPages`, true);
    const batch: string[] = [];
    while (head < queue.length && batch.length < CONCURRENCY && requests + batch.length < maxRequests) {
      const url = queue[head++] as string;
      if (robotsAllow(listing.robots, new URL(url))) batch.push(url);
    }
    requests += batch.length;
    const cap = Math.min(PAGE_CAP_BYTES, listing.bytesLeft);
    const results = await Promise.all(batch.map((url) => fetchPage(listing, url, cap)));
    for (const [index, result] of results.entries()) {
      if (result.kind === 'over-budget') return entries;
      if (result.kind === 'skipped') {
        if (batch[index] === first) throw new SourceUnavailable(`the start URL ${start} answers no page`, true);
        continue;
      }
      if (entries.length >= listing.maxPages) break;
      listing.bytesLeft -= result.bytesRead;
      if (listing.bytesLeft < 0) return entries;
      entries.push(result.entry);
      for (const link of result.links) {
        // Remembered links are bounded too: a site of endless generated URLs fills no more than this.
        if (seen.size >= maxRequests) break;
        if (!listing.under(link) || seen.has(link)) continue;
        seen.add(link);
        queue.push(link);
      }
    }
  }
  return entries;
}
