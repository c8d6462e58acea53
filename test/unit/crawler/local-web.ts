// test helper: a tiny web on 127.0.0.1 for the crawler tests — HTTP and HTTPS sites, a forward proxy and a fake DNS.
// Every server binds to 127.0.0.1 on port 0 and the proxy only ever dials 127.0.0.1: nothing leaves the machine.
import type { LookupAddress } from 'node:dns';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as netConnect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { generate } from 'selfsigned';
import { afterEach, vi } from 'vitest';
import { createHomepageReader, type HomepageReaderOptions, type HomepageSkip } from '@rivals/crawler';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface SeenRequest {
  method: string;
  host: string;
  path: string;
  userAgent: string;
}

export interface LocalSite {
  port: number;
  /** Requests in arrival order. */
  requests: SeenRequest[];
  /** TCP connections accepted, including those that never sent a request. */
  connections: number;
  paths(host?: string): string[];
  close(): Promise<void>;
}

/** A site whose pages are `routes` by path ('*' answers any other path; without it, 404). */
export function routes(table: Record<string, Handler>): Handler {
  return (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const handler = table[path] ?? table['*'];
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  };
}

export const html =
  (body: string, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);

export const redirect =
  (location: string, status = 301): Handler =>
  (_req, res) =>
    res.writeHead(status, { location }).end();

export const text =
  (body: string, status = 200, contentType = 'text/plain'): Handler =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': contentType }).end(body);

/** Accepts the request and never answers it. */
export const hang: Handler = () => undefined;

export function httpSite(handler: Handler): Promise<LocalSite> {
  return listen(createHttpServer(), handler);
}

export function httpsSite(handler: Handler, credentials: Credentials): Promise<LocalSite> {
  return listen(createHttpsServer({ key: credentials.key, cert: credentials.cert }), handler);
}

export interface Sites {
  /** An HTTP site, closed when the test ends. */
  site(handler: Handler): Promise<LocalSite>;
  /** Runs `close` when the test ends (an HTTPS site, a reader), along with the sites. */
  closeAfterTest(close: () => Promise<void>): void;
}

/** Registers an afterEach in the calling test file that closes, once each test ends, whatever that test opened. */
export function useSites(): Sites {
  let cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(cleanup.map((close) => close()));
    cleanup = [];
  });
  return {
    site: async (handler) => {
      const s = await httpSite(handler);
      cleanup.push(s.close);
      return s;
    },
    closeAfterTest: (close) => {
      cleanup.push(close);
    },
  };
}

export interface Credentials {
  key: string;
  cert: string;
}

/** A throw-away self-signed certificate for `hosts`, made at run time so that no key is ever committed. */
export async function selfSignedCertificate(hosts: string[]): Promise<Credentials> {
  const pems = await generate([{ name: 'commonName', value: hosts[0] ?? 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: hosts.map((value) => ({ type: 2 as const, value })) },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** DNS for the tests: the given names only, everything else NXDOMAIN, and never a real query. */
export function fakeDns(names: Record<string, string | string[]>): (hostname: string) => Promise<LookupAddress[]> {
  return async (hostname) => {
    const found = names[hostname.toLowerCase()];
    if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return (Array.isArray(found) ? found : [found]).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

export interface LocalProxy {
  url: string;
  /** `GET http://host:port/path` for forwarded requests, `CONNECT host:port` for tunnels. */
  seen: string[];
  close(): Promise<void>;
}

/** A forward proxy in the style of a corporate egress proxy: absolute-URI requests and CONNECT tunnels. Whatever host is
 * asked for, it dials 127.0.0.1 on the requested port. */
export async function forwardProxy(): Promise<LocalProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = httpRequest(
      { host: '127.0.0.1', port: Number(target.port), method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.headersSent ? res.destroy() : res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    sockets.add(client);
    const port = Number((req.url ?? '').slice((req.url ?? '').lastIndexOf(':') + 1));
    const upstream = netConnect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function listen(server: Server, handler: Handler): Promise<LocalSite> {
  const requests: SeenRequest[] = [];
  let connections = 0;
  server.on('connection', () => connections++);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    requests.push({
      method: req.method ?? '',
      host: (req.headers.host ?? '').replace(/:\d+$/, ''),
      path: req.url ?? '',
      userAgent: req.headers['user-agent'] ?? '',
    });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    requests,
    get connections() {
      return connections;
    },
    paths: (host) => requests.filter((r) => host === undefined || r.host === host).map((r) => r.path),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** For test files that start proxies, sites and readers themselves and set proxy variables: everything started, and
 * every variable stubbed, is undone when each test ends. */
export function useProxyWeb() {
  let cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all(cleanup.map((close) => close()));
    cleanup = [];
  });
  return {
    /** Awaits a server, closed when the test ends. */
    started: async <T extends { close(): Promise<void> }>(thing: Promise<T>): Promise<T> => {
      const t = await thing;
      cleanup.push(() => t.close());
      return t;
    },
    /** A reader that takes `.test` names for public ones (their addresses are still checked) and records its skips. */
    reader: (options: HomepageReaderOptions) => {
      const skips: HomepageSkip[] = [];
      const r = createHomepageReader({ extraPublicSuffixes: ['test'], onSkip: (skip) => skips.push(skip), ...options });
      cleanup.push(() => r.close());
      return { reader: r, skips };
    },
    /** Sets the proxy variables the way a deployment would, clearing lower-case ones the host may have. */
    proxyEnv: (proxy: LocalProxy, noProxy = '') => {
      for (const name of ['http_proxy', 'https_proxy', 'no_proxy']) vi.stubEnv(name, '');
      vi.stubEnv('HTTP_PROXY', proxy.url);
      vi.stubEnv('HTTPS_PROXY', proxy.url);
      vi.stubEnv('NO_PROXY', noProxy);
    },
  };
}
