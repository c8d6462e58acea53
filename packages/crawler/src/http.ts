// crawler adapter (secondary): bounded GETs over one undici dispatcher — direct and address-filtered, or through the
// proxy named in the environment — with redirects followed by hand so that every hop is checked: its host name before
// anything else, then its addresses (in the connection when direct; by resolving the name here when a proxy connects).
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { BlockedAddressError, guardedConnector, type AddressPolicy, type Resolver, type TlsOptions } from './connector.js';
import { Skip } from './skip.js';

export interface HttpClientOptions {
  userAgent: string;
  connectTimeoutMs: number;
  resolve: Resolver;
  /** Whether a URL's host may be requested at all, before any DNS: a public host name (or a trusted one). */
  hostAllowed: (hostname: string) => boolean;
  allow: AddressPolicy;
  tls: TlsOptions;
  proxy: ProxySettings | null;
}

export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

export interface GetOptions {
  accept: string;
  signal: AbortSignal;
}

/** Where a response came from: an address that passed the address policy. */
export interface FetchedFrom {
  address: string;
  /** True when a proxy was configured: the address is the host's, resolved here and checked (all of them) before the
   * request went to the proxy. False: the address the connection dialled, checked in its DNS lookup. */
  proxied: boolean;
}

export interface Fetched {
  url: URL;
  response: Dispatcher.ResponseData;
  from: FetchedFrom | null;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NO_OP = () => undefined;
const DRAIN_MAX_BYTES = 64 * 1024;
const DRAIN_MAX_MS = 250;

/** Proxy variables as curl reads them (lower case first, an empty one counts as unset); null when none names a proxy.
 * undici then sends https through the http proxy too when only HTTP_PROXY is set. */
export function proxyFromEnv(env: Record<string, string | undefined>): ProxySettings | null {
  const httpProxy = env.http_proxy || env.HTTP_PROXY || '';
  const httpsProxy = env.https_proxy || env.HTTPS_PROXY || '';
  if (!httpProxy && !httpsProxy) return null;
  return { httpProxy, httpsProxy, noProxy: env.no_proxy || env.NO_PROXY || '' };
}

/** Hosts whose last dialled address is remembered (a pooled connection is reused without a new lookup). */
const MAX_DIALLED_HOSTS = 4_096;

export class HttpClient {
  private readonly dispatcher: Dispatcher;
  private readonly dialled = new Map<string, string>();

  constructor(private readonly options: HttpClientOptions) {
    const connect = guardedConnector({
      resolve: options.resolve,
      allow: options.allow,
      connectTimeoutMs: options.connectTimeoutMs,
      tls: options.tls,
      onConnected: (hostname, address) => this.remember(hostname, address),
    });
    const { proxy } = options;
    this.dispatcher = proxy
      ? new EnvHttpProxyAgent({
          // Every variable is passed, even empty, so undici does not look at process.env again behind our back.
          httpProxy: proxy.httpProxy,
          httpsProxy: proxy.httpsProxy,
          noProxy: proxy.noProxy,
          // NO_PROXY hosts are dialled directly, so they get the guarded connector; proxied ones are checked in get().
          connect,
          // Corporate proxies often allow CONNECT to port 443 only: plain http goes as an absolute-URI GET.
          proxyTunnel: false,
          proxyTls: { timeout: options.connectTimeoutMs },
          requestTls: { timeout: options.connectTimeoutMs, ...options.tls },
        })
      : new Agent({ connect });
  }

  /** One GET, no redirects. Network failures become a Skip; an abort of `signal` is rethrown as it came. */
  async get(url: URL, { accept, signal }: GetOptions): Promise<{ response: Dispatcher.ResponseData; from: FetchedFrom | null }> {
    // Before any DNS or socket, and whoever connects: IP literals (the URL parser has already turned 2130706433,
    // 0x7f.1 and 127.1 into 127.0.0.1), localhost, internal and special-use names and metadata names never pass.
    if (!this.options.hostAllowed(url.hostname)) throw new Skip('blocked-address', `${url.host}: not a public host name`);
    // An egress proxy resolves the name itself and usually reaches the internal network too: the name is resolved here
    // as well, and refused when any of its addresses is not public.
    const checked = this.options.proxy ? await this.resolvePublic(url, signal) : null;
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        dispatcher: this.dispatcher,
        method: 'GET',
        signal,
        headers: {
          'user-agent': this.options.userAgent,
          accept,
          'accept-language': 'en;q=1.0, *;q=0.5',
          'accept-encoding': 'gzip, br',
        },
      });
    } catch (error) {
      throw networkFailure(error, signal, url);
    }
    const address = checked ?? this.dialled.get(bare(url.hostname));
    return { response, from: address ? { address, proxied: checked !== null } : null };
  }

  /** The first address of the URL's host, once every one of them has passed the address policy. */
  private async resolvePublic(url: URL, signal: AbortSignal): Promise<string> {
    const hostname = bare(url.hostname);
    let found;
    try {
      found = await untilAborted(this.options.resolve(hostname), signal);
    } catch (error) {
      throw networkFailure(error, signal, url);
    }
    const first = found[0];
    if (!first) throw new Skip('unreachable', `${url.origin}: no address`, false);
    if (found.some((a) => !this.options.allow(a.address, hostname))) throw new Skip('blocked-address', `${url.host}: resolves to a non-public address`);
    return first.address;
  }

  private remember(hostname: string, address: string): void {
    const key = bare(hostname);
    this.dialled.delete(key);
    this.dialled.set(key, address);
    if (this.dialled.size > MAX_DIALLED_HOSTS) this.dialled.delete(this.dialled.keys().next().value as string);
  }

  /** GETs `start`, following at most `maxRedirects` redirects; `beforeEach` may refuse a URL before it is requested. */
  async follow(start: URL, options: GetOptions & { maxRedirects: number; beforeEach?: (url: URL) => Promise<void> }): Promise<Fetched> {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      await options.beforeEach?.(url);
      const { response, from } = await this.get(url, options);
      const location = REDIRECT_STATUSES.has(response.statusCode) ? headerValue(response.headers, 'location') : undefined;
      if (location === undefined) return { url, response, from };
      await discard(response, options.signal);
      if (redirects >= options.maxRedirects) throw new Skip('too-many-redirects', `more than ${options.maxRedirects} redirects from ${start.href}`);
      url = redirectTarget(url, location);
    }
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

/** Reads at most `maxBytes` of the decoded body; past that the connection is dropped and what was read is kept. */
export async function readBody(response: Dispatcher.ResponseData, maxBytes: number, signal: AbortSignal): Promise<{ bytes: Buffer; truncated: boolean }> {
  const { body } = response;
  const encoding = (headerValue(response.headers, 'content-encoding') ?? 'identity').trim().toLowerCase();
  const decoder = decompressor(encoding);
  body.on('error', NO_OP); // undici reports its own destroy() as an error; failures mid-read reach the loop below anyway
  if (decoder === null) {
    body.destroy();
    throw new Skip('unreadable-body', `unsupported content-encoding ${encoding}`);
  }
  const source: Readable = decoder ? pipeline(body, decoder, NO_OP) : body;
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Skip('unreadable-body', `${encoding} body failed: ${describe(error)}`);
  } finally {
    body.destroy();
  }
  if (!truncated) await connectionReleased();
  return { bytes: Buffer.concat(chunks, size), truncated };
}

/** Drops a response whose body we do not want. A short body is drained first so that its connection can carry the
 * next request (a robots.txt 404 then the page, a redirect then its target); a long or slow one is cut. */
export async function discard(response: Dispatcher.ResponseData, signal: AbortSignal): Promise<void> {
  const drainSignal = AbortSignal.any([signal, AbortSignal.timeout(DRAIN_MAX_MS)]);
  await response.body.on('error', NO_OP).dump({ limit: DRAIN_MAX_BYTES, signal: drainSignal }).catch(NO_OP);
  await connectionReleased();
}

/** undici gives a connection back to its pool a turn of the event loop after the body ends; a request sent sooner
 * would open a second connection (a second TLS handshake, a second CONNECT through a proxy). */
function connectionReleased(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The first value of a response header. */
export function headerValue(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A redirect's target, resolved against the current URL; only plain http(s) URLs without credentials are followed. */
function redirectTarget(current: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, current);
  } catch {
    throw new Skip('bad-redirect', `unparseable redirect location from ${current.href}`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Skip('bad-redirect', `redirect to a ${next.protocol} URL`);
  if (next.username || next.password) throw new Skip('bad-redirect', 'redirect to a URL with credentials');
  next.hash = '';
  return next;
}

/** A URL host name as DNS and the connector see it: lower case, without IPv6 brackets. */
function bare(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** `promise`, or a rejection with the signal's reason as soon as it aborts (a DNS lookup cannot be cancelled). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** undefined: nothing to undo; null: an encoding we cannot read. */
function decompressor(encoding: string) {
  switch (encoding) {
    case 'identity':
    case '':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

function networkFailure(error: unknown, signal: AbortSignal, url: URL): unknown {
  if (isBlocked(error)) return new Skip('blocked-address', `${url.host}: not a public address`);
  if (signal.aborted) return error;
  const code = (error as { code?: unknown } | null)?.code;
  // A name that does not resolve over https will not resolve over http either.
  const retryOverHttp = code !== 'ENOTFOUND';
  return new Skip('unreachable', `${url.origin}: ${describe(error)}`, retryOverHttp);
}

function isBlocked(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof BlockedAddressError) return true;
  }
  return false;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code} ${error.message}` : error.message;
}
