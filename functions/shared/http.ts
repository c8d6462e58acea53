// composition root: the one middy chain of every HTTP function (normalise headers, check the principal, take
// rate-limit tokens, parse JSON, validate, map errors), and the one place responses are built.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { API_RESPONSE_HEADERS, GATEWAY_MESSAGES } from '@rivals/contracts';
import { ApiError, invalidRequest, requestBuckets, type Principal, type RateLimitDecision } from '@rivals/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import { config } from './config.js';
import { services } from './container.js';
import { errorBody, toApiError } from './errors.js';
import { CORRELATION_ID_PATH, logger, metrics, tracer } from './observability.js';
import { rateLimited, rateLimitHeaders, takeTokens } from './rate-limit.js';
import { clientAddress } from './client-address.js';

export interface HttpRequest<Body, Query = Record<string, string | undefined>> {
  body: Body;
  principal: Principal;
  requestId: string;
  headers: Record<string, string | undefined>;
  pathParameters: Record<string, string | undefined>;
  /** The query string, validated by the route's `query` schema when it has one. */
  query: Query;
  /** The body as sent (API Gateway base64-encodes binary media types), for routes that take no JSON. */
  rawBody: Buffer | null;
  context: Context;
  /** The event as API Gateway sent it (the request's own address, for absolute links). */
  event: APIGatewayProxyEvent;
}

export interface HttpResponse {
  statusCode: number;
  /** Sent as JSON, unless it is a string and the headers name another content-type (a CSV export), then as is. */
  body?: unknown;
  /** A body that is not JSON (a CSV download); set its content-type in `headers`. */
  text?: string;
  headers?: Record<string, string>;
}

type Parsed<Schema, Otherwise> = Schema extends z.ZodType ? z.output<Schema> : Otherwise;
type Handler<Body, Query> = (request: HttpRequest<Body, Query>) => Promise<HttpResponse>;

interface RouteOptions<Schema extends z.ZodType | undefined, QuerySchema extends z.ZodType | undefined> {
  /** Reads the authorizer's principal. False only for the routes docs/api.md names as keyless. */
  auth: boolean;
  /**
   * The routes that change access (keys, the webhook secret, webhook endpoints): the calling key is read again with
   * strong consistency on every call, whatever the authorizer cache says, and refused (401) once revoked.
   */
  freshKey?: boolean;
  /** The JSON body's schema. A request without a body is validated as `undefined`, so a schema may make it optional. */
  body?: Schema;
  /** The query string's schema (values arrive as strings). */
  query?: QuerySchema;
  handler: Handler<Parsed<Schema, undefined>, Parsed<QuerySchema, Record<string, string | undefined>>>;
}

const publishMetrics = async () => {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
};

const requestIdOf = (event: APIGatewayProxyEvent) => event.requestContext?.requestId ?? 'unknown';

/** The rate-limit decision of each request in flight, so that whatever answers it carries the RateLimit-* headers. */
const decisions = new WeakMap<APIGatewayProxyEvent, RateLimitDecision>();

export function jsonResult(response: HttpResponse, requestId: string, rateLimit?: RateLimitDecision): APIGatewayProxyResult {
  return {
    statusCode: response.statusCode,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...API_RESPONSE_HEADERS, ...rateLimitHeaders(rateLimit), ...response.headers },
    body: response.text ?? (response.body === undefined ? '' : JSON.stringify(response.body)),
  };
}

export const errorResult = (error: unknown, requestId: string, rateLimit?: RateLimitDecision): APIGatewayProxyResult => {
  const apiError = toApiError(error);
  const retryAfter = apiError.extra.retryAfterSeconds;
  return jsonResult(
    { statusCode: apiError.status, body: errorBody(apiError, requestId), headers: retryAfter ? { 'retry-after': String(retryAfter) } : {} },
    requestId,
    rateLimit,
  );
};

/** Takes the request's tokens (per IP; per key on keyed routes) before any work; 429 rate_limited when refused. */
async function limitRate(event: APIGatewayProxyEvent, auth: boolean): Promise<void> {
  // Behind CloudFront, the viewer's address; a request that skipped the distribution is refused (client-address.ts).
  const { ip, refused } = await clientAddress(event);
  if (refused) throw new ApiError('forbidden', 'Call the API through its CloudFront address (the ApiUrl output), not the execute-api endpoint.');
  const decision = await takeTokens(requestBuckets(config.rateLimits, { ip, keyId: auth ? principalOf(event).keyId : undefined }));
  if (!decision) return;
  decisions.set(event, decision);
  if (!decision.allowed) {
    metrics.addMetric('RateLimited', MetricUnit.Count, 1);
    throw rateLimited(decision.retryAfterSeconds);
  }
}

const INVALID_API_KEY_MESSAGE = GATEWAY_MESSAGES.invalid_api_key;

/** The authorizer's context, the only identity a handler trusts. */
function principalOf(event: APIGatewayProxyEvent): Principal {
  const context = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const accountId = context?.accountId;
  const keyId = context?.keyId;
  if (typeof accountId !== 'string' || typeof keyId !== 'string') throw new ApiError('invalid_api_key', INVALID_API_KEY_MESSAGE);
  return { accountId, keyId };
}

/** The key behind a cached Allow may have been revoked since: 401 invalid_api_key, as the authorizer would now answer. */
async function checkKeyIsLive(principal: Principal): Promise<void> {
  if (!(await services().apiKeyService.isLive(principal))) throw new ApiError('invalid_api_key', INVALID_API_KEY_MESSAGE);
}

/** zod validation of the parsed body or query: a violation is 400 invalid_request with the field and the problem. */
export function validate<Schema extends z.ZodType>(schema: Schema, value: unknown, where: 'body' | 'query' = 'body'): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
    return { field: keys || where, problem: issue.message };
  });
  throw invalidRequest(`Invalid request: ${details.map((d) => `${d.field}: ${d.problem}`).join('; ')}`, details);
}

const hasBody = (event: APIGatewayProxyEvent) => event.body !== null && event.body !== undefined && event.body !== '';

export function httpRoute<Schema extends z.ZodType | undefined = undefined, QuerySchema extends z.ZodType | undefined = undefined>(
  options: RouteOptions<Schema, QuerySchema>,
) {
  // Log lines carry the Lambda context and API Gateway's request id, so one request can be followed end to end.
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    // Never the event: it carries the X-API-Key header (and bodies may carry secrets), whatever POWERTOOLS_LOGGER_LOG_EVENT says.
    .use(injectLambdaContext(logger, { correlationIdPath: CORRELATION_ID_PATH, resetKeys: true, logEvent: false }))
    // Published only when a handler recorded some, so that routes without metrics log nothing about them.
    .use({ after: publishMetrics, onError: publishMetrics })
    .use(httpHeaderNormalizer());
  // docs/api.md's order of errors is 401, 429, 400: the principal, then the rate limits, then the body.
  if (options.auth) chain.use({ before: async (request) => void principalOf(request.event) });
  if (options.auth && options.freshKey) chain.use({ before: async (request) => checkKeyIsLive(principalOf(request.event)) });
  chain.use({ before: async (request) => limitRate(request.event, options.auth) });
  if (options.body) {
    // No body at all is left to the schema (absent, so undefined); any body must be JSON.
    const parser = httpJsonBodyParser();
    chain.use({ before: async (request) => (hasBody(request.event) ? parser.before?.(request) : void (request.event.body = undefined as never)) });
  }
  chain.use({
    onError: async (request) => {
      request.response = errorResult(request.error, requestIdOf(request.event), decisions.get(request.event));
    },
  });
  return chain.handler(async (event, context) => {
    const requestId = requestIdOf(event);
    const request = {
      body: options.body ? validate(options.body, event.body) : undefined,
      principal: options.auth ? principalOf(event) : { accountId: '', keyId: '' },
      requestId,
      headers: event.headers ?? {},
      pathParameters: event.pathParameters ?? {},
      query: options.query ? validate(options.query, event.queryStringParameters ?? {}, 'query') : (event.queryStringParameters ?? {}),
      rawBody: options.body || event.body == null ? null : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8'),
      context,
      event,
    } as HttpRequest<Parsed<Schema, undefined>, Parsed<QuerySchema, Record<string, string | undefined>>>;
    return jsonResult(await options.handler(request), requestId, decisions.get(event));
  });
}
