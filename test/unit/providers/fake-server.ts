// test helper: a fake HTTP service on 127.0.0.1 (HTTP/1.1, or h2c for Bedrock) recording requests, answering as told.
import { createServer as createHttp1, type IncomingHttpHeaders, type Server as Http1Server } from 'node:http';
import { createServer as createHttp2, type Http2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Never answer: the client has to give up (timeouts, aborts). */
  hang?: boolean;
}

export interface FakeServer {
  url: string;
  requests: Recorded[];
  /** How the server answers; called per request, so a test can answer differently by path or query. */
  reply: (request: Recorded) => Reply;
  close(): Promise<void>;
}

export interface FakeServerOptions {
  http2?: boolean;
}

export async function startFakeServer(options: FakeServerOptions = {}): Promise<FakeServer> {
  const { fake, listen } = fakeServer(options);
  await listen();
  return fake;
}

/** The fake server of a test file: listening from beforeAll to afterAll, its recorded requests cleared before each test.
 * The object is returned at once; its `url` is set once it listens. */
export function useFakeServer(options: FakeServerOptions = {}): FakeServer {
  const { fake, listen } = fakeServer(options);
  beforeAll(listen);
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
  });
  return fake;
}

function fakeServer(options: FakeServerOptions): { fake: FakeServer; listen(): Promise<void> } {
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  const fake: FakeServer = {
    url: '',
    requests: [],
    reply: () => ({ status: 500, body: 'no reply set' }),
    close: async () => {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const handle = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: Recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      fake.requests.push(recorded);
      const reply = fake.reply(recorded);
      if (reply.hang) return;
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
    });
  };
  const server: Http1Server | Http2Server = options.http2 ? createHttp2(handle) : createHttp1(handle);
  server.on('connection', (socket: Socket) => sockets.add(socket).size);
  server.on('session', (session: Http2Session) => sessions.add(session).size);
  const listen = async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  return { fake, listen };
}

/** A signal that never fires, for calls the test does not mean to abort. */
export const noAbort = () => new AbortController().signal;

export const target = {
  domain: 'asana.com',
  name: 'Asana',
  description: 'Work management platform for teams to plan, track and manage projects.',
  categories: ['project management', 'collaboration'],
};
