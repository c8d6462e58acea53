// local runtime: the HTTP front. It does what API Gateway does for the REST API: match the route, run the REQUEST
// authorizer on X-API-Key (401 when the header is missing or the key is denied), keep its answer per key for the
// stage's authorizer cache TTL (infra/routes.ts) unless a revocation empties the cache first (createGatewayControl, as
// FlushStageAuthorizersCache does in AWS), pass the authorizer's context on, build the Lambda proxy event and invoke the same handler code Lambda runs.
// Every path outside /api is the dashboard's (static.ts), as CloudFront sends only /api/* to API Gateway.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { API_RESPONSE_HEADERS, AUTHORIZER_RATE_LIMITED, GATEWAY_MESSAGES, GATEWAY_RETRY_AFTER_SECONDS, type ErrorCode } from '@rivals/contracts';
import { AUTHORIZER, BINARY_MEDIA_TYPES, ROUTES, type RouteSpec } from '../../../infra/routes.js';
import { createStaticSite, type StaticSiteOptions } from './static.js';

type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

/** API Gateway's payload limit for REST APIs. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const LAMBDA_TIMEOUT_MS = 29_000;
const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml)|text\/)/i;

export interface FrontOptions {
  projectRoot: string;
  routes?: RouteSpec[];
  stage?: string;
  log?: (line: string) => void;
  /** Serve the built dashboard at every path outside /api (as CloudFront does in AWS); API only when absent. */
  dashboard?: StaticSiteOptions;
  /**
   * Seconds the authorizer's answer for a key is kept and reused without asking it again, as API Gateway's authorizer
   * result cache does (the API stack sets AUTHORIZER.cacheTtlSeconds); 0 asks the authorizer on every request.
   */
  authorizerCacheTtlSeconds?: number;
  /** The cache to use (the runtime shares it with the gateway control server); one of its own when absent. */
  authorizerCache?: AuthorizerCache;
}

/** Answers kept at most; the oldest goes first (API Gateway bounds its cache too). */
const AUTHORIZER_CACHE_MAX = 10_000;

/**
 * API Gateway's REQUEST authorizer cache: the policy the authorizer returned for an identity source (the X-API-Key
 * header's value), reused until its TTL ends. Only answers are kept: an authorizer that throws (Unauthorized, or an
 * error such as a rate-limited key lookup) is asked again next time.
 */
export class AuthorizerCache {
  private readonly entries = new Map<string, { decision: APIGatewayAuthorizerResult; expiresAt: number }>();

  constructor(private readonly ttlMs: number, private readonly max = AUTHORIZER_CACHE_MAX) {}

  get(identity: string): APIGatewayAuthorizerResult | undefined {
    const entry = this.entries.get(identity);
    if (!entry) return undefined;
    if (Date.now() < entry.expiresAt) return entry.decision;
    this.entries.delete(identity);
    return undefined;
  }

  /** Empties the cache, as API Gateway's FlushStageAuthorizersCache does for a stage. */
  clear(): void {
    this.entries.clear();
  }

  set(identity: string, decision: APIGatewayAuthorizerResult): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(identity);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(identity, { decision, expiresAt: Date.now() + this.ttlMs });
  }
}

const resourcePattern = (resource: string) => new RegExp(`^${resource.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

/** Whether the policy lets this method ARN through, as API Gateway evaluates it: an explicit Deny wins, then an Allow. */
export function policyAllows(decision: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const matching = decision.policyDocument.Statement.filter((s) => {
    if (!('Resource' in s)) return false;
    const resources = Array.isArray(s.Resource) ? s.Resource : [s.Resource];
    return resources.some((r) => resourcePattern(String(r)).test(methodArn));
  });
  return !matching.some((s) => s.Effect === 'Deny') && matching.some((s) => s.Effect === 'Allow');
}

interface CompiledRoute {
  spec: RouteSpec;
  pattern: RegExp;
  params: string[];
}

function compile(spec: RouteSpec): CompiledRoute {
  const params: string[] = [];
  const source = spec.path.replace(/\{(\w+)\+?\}/g, (_, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { spec, pattern: new RegExp(`^${source}/?$`), params };
}

const lambdaContext = (functionName: string, requestId: string): Context => {
  const deadline = Date.now() + LAMBDA_TIMEOUT_MS;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

/**
 * The request target's path and query, read as they were sent. `new URL(target, base)` would take `//host/api/...` for
 * a protocol-relative URL and serve `/api/...`; an absolute-form target (`http://host/path`) keeps its own path.
 */
export function parseTarget(target: string): { pathname: string; query: URLSearchParams } {
  if (!target.startsWith('/')) {
    const url = URL.canParse(target) ? new URL(target) : null;
    return { pathname: url?.pathname ?? target, query: url?.searchParams ?? new URLSearchParams() };
  }
  const q = target.indexOf('?');
  return q < 0 ? { pathname: target, query: new URLSearchParams() } : { pathname: target.slice(0, q), query: new URLSearchParams(target.slice(q + 1)) };
}

/** Not the API's: every path but /api and /api/... (and `//...`, which a browser never sends, stays the router's 404). */
const isDashboardPath = (pathname: string) => pathname.startsWith('/') && !pathname.startsWith('//') && pathname !== '/api' && !pathname.startsWith('/api/');

type RouteMatch = { kind: 'route'; route: CompiledRoute; values: string[] } | { kind: 'method-not-allowed'; allow: string[] } | { kind: 'not-found' };

/** The route serving this method on this path; or, when the path is served only for other methods, which ones. */
function matchRoute(routes: CompiledRoute[], method: string, pathname: string): RouteMatch {
  const onPath = routes.map((route) => ({ route, m: route.pattern.exec(pathname) })).filter((r) => r.m);
  const served = onPath.find((r) => r.route.spec.method === method);
  if (served) return { kind: 'route', route: served.route, values: served.m!.slice(1) };
  if (onPath.length) return { kind: 'method-not-allowed', allow: [...new Set(onPath.map((r) => r.route.spec.method))] };
  return { kind: 'not-found' };
}

/** Path parameters decoded; null when one holds a malformed percent-escape. */
function decodeParams(values: string[]): string[] | null {
  try {
    return values.map(decodeURIComponent);
  } catch {
    return null;
  }
}

/**
 * Name/value pairs as the proxy event carries them: the last value of each name, and every value. Built with
 * Object.fromEntries, so that a name such as `__proto__` or `constructor` is a property like any other.
 */
function collect(pairs: Iterable<[string, string]>): [Record<string, string>, Record<string, string[]>] {
  const all = new Map<string, string[]>();
  for (const [name, value] of pairs) all.set(name, [...(all.get(name) ?? []), value]);
  return [Object.fromEntries([...all].map(([name, values]) => [name, values.at(-1)!])), Object.fromEntries(all)];
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function createFront(options: FrontOptions): Server {
  const routes = (options.routes ?? ROUTES).map(compile);
  const stage = options.stage ?? 'local';
  const authorizerCache = options.authorizerCache ?? new AuthorizerCache((options.authorizerCacheTtlSeconds ?? AUTHORIZER.cacheTtlSeconds) * 1000);
  const site = options.dashboard ? createStaticSite(options.dashboard) : null;
  const handlers = new Map<string, Promise<unknown>>();
  const load = <T>(entry: string) => {
    if (!handlers.has(entry)) handlers.set(entry, import(pathToFileURL(join(options.projectRoot, entry)).href).then((m: { handler: T }) => m.handler));
    return handlers.get(entry) as Promise<T>;
  };

  const send = (res: ServerResponse, requestId: string, result: APIGatewayProxyResult) => {
    const headers: Record<string, string | string[]> = { 'x-request-id': requestId };
    for (const [k, v] of Object.entries(result.headers ?? {})) headers[k.toLowerCase()] = String(v);
    for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) headers[k.toLowerCase()] = v.map(String);
    const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : Buffer.from(result.body ?? '', 'utf8');
    res.writeHead(result.statusCode, headers).end(body);
  };
  // The gateway's own answers, shaped as infra's gateway responses shape them.
  const gatewayError = (res: ServerResponse, requestId: string, status: number, code: ErrorCode, message: string, extra: { headers?: Record<string, string>; body?: object } = {}) =>
    send(res, requestId, {
      statusCode: status,
      headers: { 'content-type': 'application/json', ...API_RESPONSE_HEADERS, ...extra.headers },
      body: JSON.stringify({ error: { code, message, requestId, ...extra.body } }),
    });

  /** The authorizer's answer for this key: kept from before, or asked now (and kept). Null when it threw: the gateway has answered. */
  const authorizeRequest = async (key: string, res: ServerResponse, requestId: string, event: APIGatewayRequestAuthorizerEvent) => {
    const cached = authorizerCache.get(key);
    if (cached) return cached;
    try {
      const authorize = await load<AuthorizerHandler>(AUTHORIZER.entry);
      const decision = await authorize(event);
      authorizerCache.set(key, decision);
      return decision;
    } catch (error) {
      if ((error as Error).message === 'Unauthorized') {
        gatewayError(res, requestId, 401, 'missing_api_key', GATEWAY_MESSAGES.missing_api_key);
        return null;
      }
      // As the API stack's gateway response for authorizer errors: the key lookups of this IP are over the limit.
      if ((error as Error).message === AUTHORIZER_RATE_LIMITED) {
        const wait = GATEWAY_RETRY_AFTER_SECONDS;
        gatewayError(res, requestId, 429, 'rate_limited', GATEWAY_MESSAGES.rate_limited, {
          headers: { 'retry-after': String(wait), 'ratelimit-remaining': '0', 'ratelimit-reset': String(wait) },
          body: { retryAfterSeconds: wait },
        });
        return null;
      }
      options.log?.(`authorizer failed: ${(error as Error).stack}`);
      gatewayError(res, requestId, 500, 'internal_error', 'Something went wrong on our side.');
      return null;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const requestId = randomUUID();
    const url = parseTarget(req.url ?? '/');
    const method = (req.method ?? 'GET').toUpperCase();
    if (site && isDashboardPath(url.pathname)) return site(req, res, url.pathname);
    const match = matchRoute(routes, method, url.pathname);
    if (match.kind === 'not-found') return gatewayError(res, requestId, 404, 'not_found', GATEWAY_MESSAGES.not_found);
    if (match.kind === 'method-not-allowed') {
      return gatewayError(res, requestId, 405, 'method_not_allowed', GATEWAY_MESSAGES.method_not_allowed, { headers: { allow: match.allow.join(', ') } });
    }
    const values = decodeParams(match.values);
    if (!values) return gatewayError(res, requestId, 400, 'invalid_request', 'The path holds a malformed percent-escape.');
    const { spec } = match.route;

    const body = await readBody(req);
    if (body === 'too-large') return gatewayError(res, requestId, 413, 'payload_too_large', 'The request body is too large.');

    const rawHeaders: [string, string][] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) rawHeaders.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
    const [headers, multiValueHeaders] = collect(rawHeaders);
    const [query, multiQuery] = collect(url.query);
    const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
    const pathParameters = Object.fromEntries(match.route.params.map((p, i) => [p, values[i]!]));
    const methodArn = `arn:aws:execute-api:us-east-1:000000000000:local/${stage}/${method}${url.pathname}`;

    let authorizerContext: Record<string, unknown> | null = null;
    if (spec.auth) {
      const key = Object.entries(headers).find(([k]) => k.toLowerCase() === AUTHORIZER.header.toLowerCase())?.[1];
      if (!key) return gatewayError(res, requestId, 401, 'missing_api_key', GATEWAY_MESSAGES.missing_api_key);
      const decision = await authorizeRequest(key, res, requestId, {
        type: 'REQUEST',
        methodArn,
        resource: spec.path,
        path: url.pathname,
        httpMethod: method,
        headers,
        multiValueHeaders,
        queryStringParameters: query,
        multiValueQueryStringParameters: multiQuery,
        pathParameters,
        stageVariables: null,
        requestContext: { requestId, stage, httpMethod: method, path: url.pathname, resourcePath: spec.path, identity: { sourceIp } } as never,
      });
      if (!decision) return;
      if (!policyAllows(decision, methodArn)) return gatewayError(res, requestId, 401, 'invalid_api_key', GATEWAY_MESSAGES.invalid_api_key);
      authorizerContext = { ...decision.context, principalId: decision.principalId };
    }

    const contentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    // As API Gateway does: the REST API's binary media types arrive base64-encoded, other text as is.
    const isBinaryType = BINARY_MEDIA_TYPES.some((t) => contentType.toLowerCase().startsWith(t));
    const isText = body.length === 0 || (TEXT_TYPES.test(contentType) && !isBinaryType);
    const event: APIGatewayProxyEvent = {
      resource: spec.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: Object.keys(query).length ? query : null,
      multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
      pathParameters: Object.keys(pathParameters).length ? pathParameters : null,
      stageVariables: null,
      body: body.length === 0 ? null : isText ? body.toString('utf8') : body.toString('base64'),
      isBase64Encoded: !isText,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        authorizer: authorizerContext,
        httpMethod: method,
        identity: { sourceIp, userAgent: req.headers['user-agent'] ?? null } as never,
        path: `/${stage}${url.pathname}`,
        protocol: 'HTTP/1.1',
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: spec.id,
        resourcePath: spec.path,
        stage,
      },
    };
    try {
      const handler = await load<ProxyHandler>(spec.entry);
      send(res, requestId, await handler(event, lambdaContext(`rivals-${spec.id}`, requestId)));
    } catch (error) {
      options.log?.(`${spec.id} failed: ${(error as Error).stack}`);
      gatewayError(res, requestId, 502, 'internal_error', 'The function failed.');
    }
  };

  return createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      options.log?.(`front failed: ${error.stack}`);
      if (!res.headersSent) gatewayError(res, randomUUID(), 500, 'internal_error', 'Something went wrong on our side.');
      else res.destroy();
    });
  });
}

/**
 * API Gateway's control plane, the one call the functions make to it: FlushStageAuthorizersCache
 * (`DELETE /restapis/{id}/stages/{stage}/cache/authorizers`), which empties the front's authorizer cache. It listens
 * on loopback, on its own port (AWS_ENDPOINT_URL_API_GATEWAY of the handlers; `gatewayControl` in runtime.json for the
 * operator command); anything else is 404. Emptying a cache can only make the front ask the authorizer again.
 */
export function createGatewayControl(cache: AuthorizerCache, stage: string): Server {
  const flushPath = new RegExp(`^/restapis/[^/]+/stages/${stage}/cache/authorizers/?$`);
  return createServer((req, res) => {
    req.resume();
    const { pathname } = parseTarget(req.url ?? '/');
    if (req.method === 'DELETE' && flushPath.test(pathname)) {
      cache.clear();
      return void res.writeHead(202, { 'content-type': 'application/json' }).end('{}');
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
  });
}
