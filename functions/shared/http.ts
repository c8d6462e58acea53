// composition root: the one middy chain of every HTTP function (normalise headers, parse JSON, validate, map errors).
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { ApiError, invalidRequest, type Principal } from '@rivals/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { z } from 'zod';
import { errorBody, toApiError } from './errors.js';
import { CORRELATION_ID_PATH, logger } from './observability.js';

export interface HttpRequest<Body> {
  body: Body;
  principal: Principal;
  requestId: string;
  headers: Record<string, string | undefined>;
  pathParameters: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  context: Context;
}

export interface HttpResponse {
  statusCode: number;
  /** Sent as JSON, unless it is a string and the headers name another content-type (a CSV export), then as is. */
  body?: unknown;
  headers?: Record<string, string>;
}

type Handler<Body> = (request: HttpRequest<Body>) => Promise<HttpResponse>;

interface RouteOptions<Schema extends z.ZodType | undefined> {
  /** Reads the authorizer's principal. False only for the routes API.md names as keyless. */
  auth: boolean;
  body?: Schema;
  handler: Handler<Schema extends z.ZodType ? z.output<Schema> : undefined>;
}

const requestIdOf = (event: APIGatewayProxyEvent) => event.requestContext?.requestId ?? 'unknown';

const isText = (headers: Record<string, string> | undefined) => /^text\//i.test(headers?.['content-type'] ?? '');

export function jsonResult(response: HttpResponse, requestId: string): APIGatewayProxyResult {
  return {
    statusCode: response.statusCode,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...response.headers },
    body: response.body === undefined ? '' : typeof response.body === 'string' && isText(response.headers) ? response.body : JSON.stringify(response.body),
  };
}

export const errorResult = (error: unknown, requestId: string): APIGatewayProxyResult => {
  const apiError = toApiError(error);
  const retryAfter = apiError.extra.retryAfterSeconds;
  return jsonResult(
    { statusCode: apiError.status, body: errorBody(apiError, requestId), headers: retryAfter ? { 'retry-after': String(retryAfter) } : {} },
    requestId,
  );
};

/** The authorizer's context, the only identity a handler trusts. */
function principalOf(event: APIGatewayProxyEvent): Principal {
  const context = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const accountId = context?.accountId;
  const keyId = context?.keyId;
  if (typeof accountId !== 'string' || typeof keyId !== 'string') throw new ApiError('invalid_api_key', 'The API key is not valid.');
  return { accountId, keyId };
}

/** zod validation of the parsed body: a schema violation is 400 invalid_request with the field and the problem. */
export function validate<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
    return { field: keys || 'body', problem: issue.message };
  });
  throw invalidRequest(`Invalid request: ${details.map((d) => `${d.field}: ${d.problem}`).join('; ')}`, details);
}

export function httpRoute<Schema extends z.ZodType | undefined = undefined>(options: RouteOptions<Schema>) {
  // Log lines carry the Lambda context and API Gateway's request id, so one request can be followed end to end.
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(injectLambdaContext(logger, { correlationIdPath: CORRELATION_ID_PATH, resetKeys: true }))
    .use(httpHeaderNormalizer());
  // 401 comes before any 400 (API.md's order of errors), so the principal is checked before the body is parsed.
  if (options.auth) chain.use({ before: async (request) => void principalOf(request.event) });
  if (options.body) chain.use(httpJsonBodyParser());
  chain.use({
    onError: async (request) => {
      request.response = errorResult(request.error, requestIdOf(request.event));
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
      query: event.queryStringParameters ?? {},
      context,
    } as HttpRequest<Schema extends z.ZodType ? z.output<Schema> : undefined>;
    return jsonResult(await options.handler(request), requestId);
  });
}
