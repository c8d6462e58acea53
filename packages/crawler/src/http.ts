// crawler adapter (secondary): bounded GETs over one undici dispatcher — direct and address-filtered, or through the
// proxy named in the environment — with redirects followed by hand so that every hop is checked.
import { isIP } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { BlockedAddressError, guardedConnector, type AddressPolicy, type Resolver, type TlsOptions } from './connector.js';
import { Skip } from './skip.js';

export interface HttpClientOptions {
  userAgent: string;
  connectTimeoutMs: number;
  resolve: Resolver;
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

export interface Fetched {
  url: URL;
  response: Dispatcher.ResponseData;
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

export class HttpClient {
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: HttpClientOptions) {
    const connect = guardedConnector({ resolve: options.resolve, allow: options.allow, connectTimeoutMs: options.connectTimeoutMs, tls: options.tls });
    const { proxy } = options;
    this.dispatcher = proxy
      ? new EnvHttpProxyAgent({
          // Every variable is passed, even empty, so undici does not look at process.env again behind our back.
          httpProxy: proxy.httpProxy,
          httpsProxy: proxy.httpsProxy,
          noProxy: proxy.noProxy,
          // NO_PROXY hosts are dialled directly, so they get the guarded connector; proxied ones are the proxy's business.
          connect,
          // Corporate proxies often allow CONNECT to port 443 only: plain http goes as an absolute-URI GET.
          proxyTunnel: false,
          proxyTls: { timeout: options.connectTimeoutMs },
          requestTls: { timeout: options.connectTimeoutMs, ...options.tls },
        })
      : new Agent({ connect });
  }

  /** One GET, no redirects. Network failures become a Skip; an abort of `signal` is rethrown as it came. */
  async get(url: URL, { accept, signal }: GetOptions): Promise<Dispatcher.ResponseData> {
    // A host that names its address needs no DNS, so it is checked even when a proxy does the connecting: an egress
    // proxy usually reaches the internal network too.
    const named = addressNamedBy(url.hostname);
    if (named && !this.options.allow(named, url.hostname)) throw new Skip('blocked-address', `${url.host}: not a public address`);
    try {
      return await request(url, {
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
  }

  /** GETs `start`, following at most `maxRedirects` redirects; `beforeEach` may refuse a URL before it is requested. */
  async follow(start: URL, options: GetOptions & { maxRedirects: number; beforeEach?: (url: URL) => Promise<void> }): Promise<Fetched> {
    let url = start;
    for (let redirects = 0; ; redirects++) {
      await options.beforeEach?.(url);
      const response = await this.get(url, options);
      const location = REDIRECT_STATUSES.has(response.statusCode) ? headerValue(response.headers, 'location') : undefined;
      if (location === undefined) return { url, response };
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

/** The address a host name stands for without DNS: an IP literal, or loopback for `localhost` names (RFC 6761). */
function addressNamedBy(hostname: string): string | null {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (isIP(host) !== 0) return host;
  if (host === 'localhost' || host.endsWith('.localhost')) return '127.0.0.1';
  return null;
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
