import type { WebSettings } from '../../contracts/sources';
import type { OutboundPolicy } from '../../outbound/outboundHttp';
import type { RobotsRule } from './robotsTxt';
import { SourceUnavailable } from './sourceReader';
import { pageUrl, robotsOf } from './webFetch';

/** One listing of a web source in progress: its bounds, what it has left to read, the site's robots rules. */
export interface WebListing {
  policy: OutboundPolicy;
  /** True for a URL (fragment removed) that starts with the source's prefix. */
  under(url: string): boolean;
  robots: readonly RobotsRule[];
  maxPages: number;
  /** Of maxBytes, what the listing may still read (sitemaps, or the crawled pages). */
  bytesLeft: number;
}

/**
 * A listing's context. Every entry is under the prefix, so one robots.txt (the prefix's origin)
 * rules them all; it is read once per listing.
 */
export async function startListing(settings: WebSettings, policy: OutboundPolicy): Promise<WebListing> {
  const prefix = pageUrl(settings.prefix);
  if (prefix === null) throw new SourceUnavailable('the prefix must be an http or https URL', true);
  return {
    policy,
    under: (url) => url.startsWith(prefix),
    robots: await robotsOf(policy, new URL(prefix).origin),
    maxPages: settings.maxPages,
    bytesLeft: settings.maxBytes,
  };
}
