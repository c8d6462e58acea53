// providers (shared): turning whatever a model or a search result calls a domain into a registrable domain we accept.
import { normalizeDomain } from '@rivals/core';

/**
 * The registrable domain of a domain, host or URL, by the same rules as the API's own input ("https://www.x.com/y" ->
 * "x.com"), or null for IP addresses, localhost, internal names and text that is no hostname at all.
 */
export function candidateDomain(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > 300) return null;
  try {
    return normalizeDomain(input);
  } catch {
    return null;
  }
}

/** True when `host` is `domain` or one of its subdomains. */
export function isWithin(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * Hosts that show up in "X competitors" searches without being anyone's competitor: social networks, review and
 * comparison sites, company databases, media and blog platforms, app stores, Q&A and code hosting. Matched with their
 * subdomains. Not exhaustive (the engine verifies every candidate); it keeps the obvious noise out of the votes.
 */
export const NON_COMPETITOR_DOMAINS: readonly string[] = [
  // social networks and video
  'linkedin.com', 'facebook.com', 'fb.com', 'instagram.com', 'twitter.com', 'x.com', 'threads.net', 'tiktok.com',
  'youtube.com', 'youtu.be', 'vimeo.com', 'pinterest.com', 'reddit.com', 'quora.com', 'discord.com', 'bsky.app',
  // software review, comparison and listing sites
  'g2.com', 'capterra.com', 'getapp.com', 'softwareadvice.com', 'trustradius.com', 'trustpilot.com', 'gartner.com',
  'producthunt.com', 'alternativeto.net', 'saasworthy.com', 'saashub.com', 'slashdot.org', 'sourceforge.net',
  'crozdesk.com', 'stackshare.io', 'softwaresuggest.com', 'financesonline.com', 'selecthub.com', 'peerspot.com',
  'comparably.com', 'sitejabber.com', 'consumeraffairs.com', 'yelp.com', 'tripadvisor.com', 'bbb.org',
  // company databases and jobs
  'crunchbase.com', 'zoominfo.com', 'owler.com', 'cbinsights.com', 'pitchbook.com', 'tracxn.com', 'similarweb.com',
  'craft.co', 'dnb.com', 'glassdoor.com', 'indeed.com', 'builtin.com', 'wellfound.com', 'ycombinator.com',
  // media, reference and blog platforms
  'wikipedia.org', 'wikimedia.org', 'medium.com', 'substack.com', 'blogspot.com', 'wordpress.com', 'tumblr.com',
  'forbes.com', 'techcrunch.com', 'businessinsider.com', 'zdnet.com', 'techradar.com', 'pcmag.com', 'cnet.com',
  'theverge.com', 'wired.com', 'venturebeat.com', 'nytimes.com', 'bloomberg.com', 'reuters.com', 'cnbc.com',
  'wsj.com', 'ft.com', 'investopedia.com', 'fool.com', 'seekingalpha.com', 'yahoo.com', 'inc.com',
  'entrepreneur.com', 'fastcompany.com', 'makeuseof.com', 'tomsguide.com', 'emailtooltester.com',
  // code, Q&A and app stores (matched as hosts so that the companies behind them can still be proposed elsewhere)
  'github.com', 'github.io', 'gitlab.io', 'stackoverflow.com', 'stackexchange.com', 'apps.apple.com',
  'play.google.com', 'chromewebstore.google.com', 'marketplace.atlassian.com', 'appexchange.salesforce.com',
  'apps.shopify.com', 'docs.google.com', 'sites.google.com',
];

export function isNonCompetitorHost(host: string, extra: readonly string[] = []): boolean {
  return NON_COMPETITOR_DOMAINS.some((d) => isWithin(host, d)) || extra.some((d) => isWithin(host, d));
}
