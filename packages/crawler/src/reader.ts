// crawler adapter (secondary): the HomepageReader port over the real internet — https first, http as the fallback,
// robots.txt honoured, every hop's host name and addresses checked, every read bounded in time, bytes and CPU.
import { isPublicHostname, type Clock, type HomepageProfile, type HomepageReader } from '@rivals/core';
import { isBlockedAddress } from './address-filter.js';
import { systemResolver, type AddressPolicy, type Resolver, type TlsOptions } from './connector.js';
import { extractFacts } from './extract.js';
import { discard, headerValue, HttpClient, proxyFromEnv, readBody, type FetchedFrom } from './http.js';
import { RobotsGate } from './robots.js';
import { Skip, type SkipReason } from './skip.js';

export const ROBOTS_TOKEN = 'RivalsBot';
export const DEFAULT_USER_AGENT = `Mozilla/5.0 (compatible; ${ROBOTS_TOKEN}/1.0; +https://rivals.dev/bot)`;

export interface HomepageReaderTimeouts {
  /** TCP (and TLS) connection set-up, per connection. Default 3 000 ms. */
  connectMs?: number;
  /** One whole read: robots.txt, both schemes, every hop and the body. Default 6 000 ms. */
  totalMs?: number;
  /** robots.txt of one origin, within the total. Default 2 000 ms. */
  robotsMs?: number;
}

export interface HomepageReaderOptions {
  timeouts?: HomepageReaderTimeouts;
  /** Body bytes read (after decompression); the rest of a larger page is not downloaded. Default 2 MiB. */
  maxBodyBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Default `Mozilla/5.0 (compatible; RivalsBot/1.0; +https://rivals.dev/bot)`; robots.txt is matched on `RivalsBot`. */
  userAgent?: string;
  /** Ports of the first request per scheme (tests reach a local server this way). Defaults 80 and 443. */
  ports?: { http?: number; https?: number };
  /** DNS for direct connections. Default: the system resolver (`dns.lookup`, all addresses). */
  lookup?: Resolver;
  /** Lets direct connections reach private, loopback and other non-public addresses. Default false; only for tests. */
  allowPrivateAddresses?: boolean;
  /** Exact host names exempt from the host-name check and the address filter (an internal mirror, a test server).
   * Redirects elsewhere stay filtered. */
  trustedHosts?: string[];
  /** Suffixes whose names pass the host-name check as if under a public suffix (the tests use `test`); their
   * addresses are still checked. Default none; only for tests. */
  extraPublicSuffixes?: string[];
  /** TLS of the sites (not of a proxy): a private CA, or no verification at all for a test server. */
  tls?: TlsOptions;
  /** Where HTTP_PROXY, HTTPS_PROXY and NO_PROXY (either case) are read, once, when the reader is created. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Source of `fetchedAt`. Default the system clock. */
  clock?: Clock;
  /** Told why a read returned null. */
  onSkip?: (skip: HomepageSkip) => void;
}

export interface HomepageSkip {
  domain: string;
  reason: SkipReason;
  detail: string;
}

/** A profile as this reader returns it: with the address the page came from, which passed the address policy. */
export interface CrawledProfile extends HomepageProfile {
  fetchedFrom: FetchedFrom;
}

/** A HomepageReader that owns connections: close it when done (a Lambda container never needs to). */
export interface ClosableHomepageReader extends HomepageReader {
  read(domain: string, signal: AbortSignal): Promise<CrawledProfile | null>;
  /** True when the reader sends its requests through a proxy named in the environment. */
  readonly proxied: boolean;
  close(): Promise<void>;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, */*;q=0.1';
const systemClock: Clock = { now: () => new Date() };

export function createHomepageReader(options: HomepageReaderOptions = {}): ClosableHomepageReader {
  return new CrawlingHomepageReader(options);
}

class CrawlingHomepageReader implements ClosableHomepageReader {
  readonly proxied: boolean;
  private readonly client: HttpClient;
  private readonly connectMs: number;
  private readonly totalMs: number;
  private readonly robotsMs: number;
  private readonly maxBodyBytes: number;
  private readonly maxRedirects: number;
  private readonly clock: Clock;
  private readonly allow: AddressPolicy;

  constructor(private readonly options: HomepageReaderOptions) {
    this.connectMs = options.timeouts?.connectMs ?? 3_000;
    this.totalMs = options.timeouts?.totalMs ?? 6_000;
    this.robotsMs = options.timeouts?.robotsMs ?? 2_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 2 * 1024 * 1024;
    this.maxRedirects = options.maxRedirects ?? 5;
    this.clock = options.clock ?? systemClock;
    const trusted = new Set((options.trustedHosts ?? []).map(hostKey));
    const suffixes = (options.extraPublicSuffixes ?? []).map((s) => `.${hostKey(s)}`);
    const hostAllowed = (hostname: string) => {
      const host = hostKey(hostname);
      return trusted.has(host) || isPublicHostname(host) || suffixes.some((s) => host.endsWith(s) && isPublicHostname(`${host.slice(0, -s.length)}.com`));
    };
    const allow: AddressPolicy = options.allowPrivateAddresses
      ? () => true
      : (address, hostname) => trusted.has(hostKey(hostname)) || !isBlockedAddress(address);
    this.allow = allow;
    const proxy = proxyFromEnv(options.env ?? process.env);
    this.proxied = proxy !== null;
    this.client = new HttpClient({
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      connectTimeoutMs: this.connectMs,
      resolve: options.lookup ?? systemResolver,
      hostAllowed,
      allow,
      tls: options.tls ?? {},
      proxy,
    });
  }

  /** Null for any site-side reason (see SkipReason); rejects only when `signal` aborts, with its reason. */
  async read(domain: string, signal: AbortSignal): Promise<CrawledProfile | null> {
    signal.throwIfAborted();
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(this.totalMs)]);
    try {
      const host = hostOf(domain);
      const page = await this.fetchHomepage(host, deadline);
      deadline.throwIfAborted(); // the deadline wins over a page that arrived just too late
      // Only a page from an address that passed the policy becomes a profile (and so enters the engine's cache).
      const from = page.from;
      if (!from || !this.allow(from.address, page.url.hostname)) {
        throw new Skip('blocked-address', `${page.url.href}: not fetched from a known public address`);
      }
      // Linear in the page's size and capped (see extract.ts): a few tens of milliseconds for the worst 2 MiB page.
      const facts = extractFacts(page.bytes, page.charset);
      if (!facts.title && !facts.description && facts.headings.length === 0 && !facts.organizationName) {
        throw new Skip('no-text', `${page.url.href} has no title, description, heading or organisation name`);
      }
      return { domain, url: page.url.href, ...facts, fetchedAt: this.clock.now().toISOString(), fetchedFrom: from };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const skip = error instanceof Skip ? error : deadline.aborted ? new Skip('timeout', `no page within ${this.totalMs} ms`) : new Skip('error', describe(error));
      this.options.onSkip?.({ domain, reason: skip.reason, detail: skip.message });
      return null;
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /**
   * The bare host first; `www.` when the bare name cannot be reached at all (it does not resolve, refuses, or fails
   * TLS on both schemes): some companies serve their site only there.
   */
  private async fetchHomepage(host: string, deadline: AbortSignal) {
    try {
      return await this.fetchOrigin(host, deadline);
    } catch (error) {
      if (host.startsWith('www.') || !(error instanceof Skip && error.reason === 'unreachable') || deadline.aborted) throw error;
      return await this.fetchOrigin(`www.${host}`, deadline);
    }
  }

  /** https first; plain http only when https failed at the network level (refused, reset, TLS, connect timeout). */
  private async fetchOrigin(host: string, deadline: AbortSignal) {
    const robots = new RobotsGate(this.client, { token: ROBOTS_TOKEN, timeoutMs: this.robotsMs, signal: deadline });
    try {
      return await this.fetchPage(new URL(`https://${host}${portSuffix(this.options.ports?.https, 443)}/`), robots, deadline);
    } catch (error) {
      if (!(error instanceof Skip && error.retryOverHttp) || deadline.aborted) throw error;
    }
    return await this.fetchPage(new URL(`http://${host}${portSuffix(this.options.ports?.http, 80)}/`), robots, deadline);
  }

  private async fetchPage(start: URL, robots: RobotsGate, signal: AbortSignal) {
    const { url, response, from } = await this.client.follow(start, {
      accept: PAGE_ACCEPT,
      signal,
      maxRedirects: this.maxRedirects,
      beforeEach: (next) => robots.check(next),
    });
    if (response.statusCode < 200 || response.statusCode >= 300) {
      await discard(response, signal);
      throw new Skip('http-status', `${url.href} answered ${response.statusCode}`);
    }
    const { mediaType, charset } = parseContentType(headerValue(response.headers, 'content-type'));
    if (!HTML_TYPES.has(mediaType)) {
      await discard(response, signal);
      throw new Skip('not-html', `${url.href} is ${mediaType || 'of no declared type'}`);
    }
    // Past the cap the page is cut, not refused: what the profile needs (head, JSON-LD, top headings) comes first.
    const { bytes } = await readBody(response, this.maxBodyBytes, signal);
    return { url, bytes, charset, from };
  }
}

/** The host name of a bare domain, lower-cased; anything with a scheme, port, path or credentials is refused. */
function hostOf(domain: string): string {
  const candidate = domain.trim().replace(/\.$/, '');
  if (!candidate || /[/?#@\\:\s[\]]/.test(candidate)) {
    throw new Skip('invalid-domain', `not a bare host name: ${JSON.stringify(domain)}`);
  }
  let url: URL;
  try {
    url = new URL(`http://${candidate}/`);
  } catch {
    throw new Skip('invalid-domain', `not a bare host name: ${JSON.stringify(domain)}`);
  }
  return url.hostname;
}

/** A host name as the checks compare it: lower case, without IPv6 brackets or the trailing dot of a rooted name. */
function hostKey(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
}

function portSuffix(port: number | undefined, standard: number): string {
  return port === undefined || port === standard ? '' : `:${port}`;
}

function parseContentType(header: string | undefined): { mediaType: string; charset: string | undefined } {
  const [type = '', ...parameters] = (header ?? '').split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset' && value) charset = value.trim().replace(/^"(.*)"$/, '$1');
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
