// contracts: the OpenAPI 3.1 document of the API, generated from the same zod schemas the handlers validate with, so
// that the document and the service cannot disagree. Served at GET /api/openapi.json.
import { z } from 'zod';
import { ErrorBody, errorCodes, ERROR_STATUS, type ErrorCode } from './errors.js';
import { Balance, Health, SearchRequest, SearchResult, StoredSearch } from './search.js';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output' = 'output') => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });

/** An error response listing the codes a route can answer with at that status. */
const errors = (...codes: ErrorCode[]) => {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [String(status), { description: list.map((c) => `\`${c}\``).join(', '), content: json('Error') }]),
  );
};

const requestId = { 'X-Request-Id': { description: 'Identifies the request; error bodies repeat it.', schema: { type: 'string' } } };
const ok = (description: string, schema: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { ...requestId, ...headers },
  content: json(schema),
});

export function openApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rivals API',
      version,
      description:
        'Competitor research: given a company domain, a ranked list of up to 100 competitors with match score, type, confidence and a likely-competitor flag. A search costs 1 credit; failed searches are refunded; reads are free.',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: '`sk-live-` followed by at least 32 base62 characters.' } },
      schemas: {
        SearchRequest: jsonSchema(SearchRequest, 'input'),
        SearchResult: jsonSchema(SearchResult),
        StoredSearch: jsonSchema(StoredSearch),
        Balance: jsonSchema(Balance),
        Health: jsonSchema(Health),
        Error: { ...jsonSchema(ErrorBody), description: `Error codes: ${errorCodes.join(', ')}.` },
      },
    },
    paths: {
      '/api/v1/search': {
        post: {
          operationId: 'search',
          summary: 'Competitor search for a domain (1 credit; refunded when it fails)',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'A retry with the same key within 24 h replays the first answer and never charges twice.',
              schema: { type: 'string', maxLength: 255 },
            },
          ],
          requestBody: { required: true, content: json('SearchRequest') },
          responses: {
            '200': ok('The ranked competitors.', 'SearchResult', {
              'X-Search-Id': { description: 'Id of the stored search, for GET /api/searches/{id}.', schema: { type: 'string' } },
              'Idempotent-Replayed': { description: '"true" when the answer is a replay.', schema: { type: 'string' } },
            }),
            ...errors(
              'invalid_request', 'invalid_domain', 'missing_api_key', 'invalid_api_key', 'insufficient_credits', 'idempotency_in_progress',
              'unsupported_media_type', 'no_competitors_found', 'idempotency_key_reused', 'rate_limited', 'internal_error', 'research_failed', 'research_timeout',
            ),
          },
        },
      },
      '/api/v1/balance': {
        get: {
          operationId: 'getBalance',
          summary: 'Remaining search credits (free)',
          responses: { '200': ok('The balance.', 'Balance'), ...errors('missing_api_key', 'invalid_api_key', 'rate_limited') },
        },
      },
      '/api/searches/{id}': {
        get: {
          operationId: 'getSearch',
          summary: 'A past search with the evidence behind every row (free)',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^srch_[0-9a-z]{26}$' } }],
          responses: { '200': ok('The stored search.', 'StoredSearch'), ...errors('missing_api_key', 'invalid_api_key', 'not_found', 'rate_limited') },
        },
      },
      '/api/health': {
        get: {
          operationId: 'health',
          summary: 'Liveness (no key)',
          security: [],
          responses: { '200': ok('The service runs.', 'Health'), '503': ok('A part the service needs does not answer; `failing` names it.', 'Health') },
        },
      },
      '/api/openapi.json': {
        get: {
          operationId: 'openApi',
          summary: 'This document (no key)',
          security: [],
          responses: { '200': { description: 'The OpenAPI 3.1 document.', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
      },
    },
  };
}
